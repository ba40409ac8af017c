import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { getOrgApp, updateApp } from '../app/manage-apps';
import type { AppSettings } from '../domain/app';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { consoleApp } from './console-presenters';

/** PATCH /console/v1/orgs/{orgId}/apps/{appId}: renames the app or changes settings (merged over the current ones). */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleAppUpdate, deps, async (req) => {
    const { path, body } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleAppUpdate, req, { queryPolicy: strictQuery });
    const before = consoleApp(await getOrgApp(deps, path));
    const app = await updateApp(deps, {
      appId: path.appId,
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.settings ? { settings: body.settings as Partial<AppSettings> } : {}),
    });
    const after = consoleApp(app);
    return { status: 200, body: { data: after }, audit: { before, after } };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
