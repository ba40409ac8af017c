import { deleteApp } from '../app/manage-apps';
import { httpRoute } from './kit';
import { readRequest } from './request-declaration';
import { ADMIN_RESOURCE_REQUESTS } from '../openapi/admin-resource-requests';
import { lambdaHandler } from './lambda';
import { adminApp } from './admin-presenters';
import { adminJobsProductionDeps, type AdminJobsDeps } from '../wiring/admin-jobs-wiring';
import { PLATFORM_ROUTES } from '../platform-routes';

/**
 * DELETE /admin/v1/apps/{appId}: 202. The app leaves the apps list at once; its sessions and consumers
 * are tombstoned (`app_deleted`) and removed by the jobs worker.
 */
export const createHandler = (deps: AdminJobsDeps) =>
  httpRoute(PLATFORM_ROUTES.adminAppDelete, deps, async (req) => {
    const { path } = await readRequest(ADMIN_RESOURCE_REQUESTS.adminAppDelete, req);
    return { status: 202, body: { data: adminApp(await deleteApp(deps, { appId: path.appId })) } };
  });

export const handler = lambdaHandler(createHandler, adminJobsProductionDeps);
