import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { deleteApp, getOrgApp } from '../app/manage-apps';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleAppDeletionProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { consoleApp } from './console-presenters';

/** DELETE /console/v1/orgs/{orgId}/apps/{appId}: the app leaves every list at once; its sessions and consumers are then deleted with tombstones. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleAppDelete, deps, async (req) => {
    const { path } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleAppDelete, req, { queryPolicy: strictQuery });
    const before = consoleApp(await getOrgApp(deps, path));
    await deleteApp(deps, { appId: path.appId });
    return { status: 204, audit: { before } };
  });

export const handler = lambdaHandler(createHandler, consoleAppDeletionProductionDeps);
