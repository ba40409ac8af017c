import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../app/admit-console-member';
import { createApp } from '../app/manage-apps';
import type { AppSettings } from '../domain/app';
import { CONSOLE_TENANCY_REQUESTS } from '../openapi/tenancy-console-requests';
import { TENANCY_ROUTES } from '../tenancy-routes';
import { consoleTenancyProductionDeps, type ConsoleTenancyDeps } from '../wiring/console-tenancy-wiring';
import { consoleApp } from './console-presenters';

/** POST /console/v1/orgs/{orgId}/apps: a new app; its `appNameId` is the `model` chat clients send. */
export const createHandler = (deps: ConsoleTenancyDeps) =>
  httpRoute(TENANCY_ROUTES.consoleAppCreate, deps, async (req) => {
    const { body } = await readRequest(CONSOLE_TENANCY_REQUESTS.consoleAppCreate, req, { queryPolicy: strictQuery });
    const app = await createApp(deps, {
      orgId: consoleOrgOf(req).orgId,
      name: body.name,
      ...(body.slug !== undefined ? { slug: body.slug } : {}),
      ...(body.settings ? { settings: body.settings as Partial<AppSettings> } : {}),
    });
    const data = consoleApp(app);
    return { status: 201, body: { data }, audit: { resource: { type: 'app', id: app.id }, after: data } };
  });

export const handler = lambdaHandler(createHandler, consoleTenancyProductionDeps);
