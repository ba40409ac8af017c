import { listOrgApps } from '../app/list-org-apps';
import { checkUnknownQueryParams } from '../domain/query-policy';
import { httpRoute, type HttpDeps } from './kit';
import { lambdaHandler } from './lambda';
import { exportApp } from './presenters';

/** GET /api/v1/org/apps: the org's non-deleted apps, newest first. Takes no query parameters. */
export const createHandler = (deps: HttpDeps) =>
  httpRoute('orgAppsList', deps, async (req) => {
    const { headers } = checkUnknownQueryParams(Object.keys(req.query), [], deps.clock.nowUs());
    const apps = await listOrgApps(deps, { orgId: req.principal!.orgId });
    return { status: 200, body: { data: apps.map(exportApp) }, headers };
  });

export const handler = lambdaHandler(createHandler);
