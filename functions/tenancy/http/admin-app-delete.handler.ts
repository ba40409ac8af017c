import { deleteApp } from '../app/manage-apps';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { ADMIN_RESOURCE_REQUESTS } from '../openapi/admin-resource-requests';
import { adminApp } from './admin-presenters';
import { adminJobsProductionDeps, type AdminJobsDeps } from '../wiring/admin-jobs-wiring';
import { TENANCY_ROUTES } from '../tenancy-routes';

/**
 * DELETE /admin/v1/apps/{appId}: 202. The app leaves the apps list at once; its sessions and consumers
 * are tombstoned (`app_deleted`) and removed by the jobs worker.
 */
export const createHandler = (deps: AdminJobsDeps) =>
  httpRoute(TENANCY_ROUTES.adminAppDelete, deps, async (req) => {
    const { path } = await readRequest(ADMIN_RESOURCE_REQUESTS.adminAppDelete, req);
    const app = await deleteApp(deps, { appId: path.appId });
    return { status: 202, body: { data: adminApp(app) }, audit: { orgId: app.orgId } };
  });

export const handler = lambdaHandler(createHandler, adminJobsProductionDeps);
