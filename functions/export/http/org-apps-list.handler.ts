import { listOrgApps } from '../app/list-org-apps';
import { exportRequest } from './export-query';
import { EXPORT_REQUESTS } from '../openapi/export-requests';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { exportApp } from '../domain/export-rows';
import { exportProductionDeps, type ExportFunctionDeps } from '../export-wiring';
import { EXPORT_ROUTES } from '../export-routes';

/** GET /api/v1/org/apps: the org's non-deleted apps, newest first. Takes no query parameters. */
export const createHandler = (deps: ExportFunctionDeps) =>
  httpRoute(EXPORT_ROUTES.orgAppsList, deps, async (req) => {
    const { answerHeaders: headers } = exportRequest(req, EXPORT_REQUESTS.orgAppsList, deps.clock.nowUs());
    const apps = await listOrgApps(deps, { orgId: req.principal!.orgId });
    return { status: 200, body: { data: apps.map(exportApp) }, headers };
  });

export const handler = lambdaHandler(createHandler, exportProductionDeps);
