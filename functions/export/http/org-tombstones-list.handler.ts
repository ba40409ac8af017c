import { exportTombstones } from '../app/export-lists';
import { pagedExportRequest } from './export-query';
import { EXPORT_REQUESTS } from '../openapi/export-requests';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { exportTombstone } from '../domain/export-rows';
import { pagination } from './export-presenters';
import { exportProductionDeps, type ExportFunctionDeps } from '../export-wiring';
import { EXPORT_ROUTES } from '../export-routes';

/** GET /api/v1/org/tombstones: the deletion feed, by deleted_at then id, descending; `cause` matched exactly. */
export const createHandler = (deps: ExportFunctionDeps) =>
  httpRoute(EXPORT_ROUTES.orgTombstonesList, deps, async (req) => {
    const q = pagedExportRequest(req, EXPORT_REQUESTS.orgTombstonesList, deps.clock.nowUs());
    const cause = q.query.cause;
    const page = await exportTombstones(deps, {
      orgId: req.principal!.orgId,
      limit: q.limit,
      ...(q.query.cursor !== undefined ? { cursor: q.query.cursor } : {}),
      ...(cause !== undefined ? { cause } : {}),
    });
    return { status: 200, body: { data: page.rows.map(exportTombstone), pagination: pagination(page) }, headers: q.headers };
  });

export const handler = lambdaHandler(createHandler, exportProductionDeps);
