import { exportUsage } from '../app/export-lists';
import { pagedExportRequest } from './export-query';
import { EXPORT_REQUESTS } from '../openapi/export-requests';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { exportUsageRow } from '../domain/export-rows';
import { pagination } from './export-presenters';
import { exportProductionDeps, type ExportFunctionDeps } from '../export-wiring';
import { EXPORT_ROUTES } from '../export-routes';

/** GET /api/v1/org/usage: per-call token usage and cost, by created_at then id, descending. */
export const createHandler = (deps: ExportFunctionDeps) =>
  httpRoute(EXPORT_ROUTES.orgUsageList, deps, async (req) => {
    const q = pagedExportRequest(req, EXPORT_REQUESTS.orgUsageList, deps.clock.nowUs());
    const sinceUs = q.query.since;
    const page = await exportUsage(deps, {
      orgId: req.principal!.orgId,
      limit: q.limit,
      ...(q.query.cursor !== undefined ? { cursor: q.query.cursor } : {}),
      ...(sinceUs !== undefined ? { sinceUs } : {}),
    });
    return { status: 200, body: { data: page.rows.map(exportUsageRow), pagination: pagination(page) }, headers: q.headers };
  });

export const handler = lambdaHandler(createHandler, exportProductionDeps);
