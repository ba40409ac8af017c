import { exportSessions, exportSessionsWithMessages } from '../app/export-lists';
import { MAX_PAGE_BYTES, responseBytes } from '../domain/page-budget';
import { pagedExportRequest } from './export-query';
import { EXPORT_REQUESTS } from '../openapi/export-requests';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { exportSession, exportSessionWithMessages } from '../domain/export-rows';
import { pagination } from './export-presenters';
import { exportProductionDeps, type ExportFunctionDeps } from '../export-wiring';
import { EXPORT_ROUTES } from '../export-routes';

/**
 * GET /api/v1/org/sessions: sessions across the org's apps, by last_activity_at then id, descending;
 * `include=messages` puts each row's transcript in it, within the page's byte budget.
 */
export const createHandler = (deps: ExportFunctionDeps) =>
  httpRoute(EXPORT_ROUTES.orgSessionsList, deps, async (req) => {
    const q = pagedExportRequest(req, EXPORT_REQUESTS.orgSessionsList, deps.clock.nowUs());
    const { app_id: appId, updated_after: updatedAfterUs, started_after: startedFromUs, started_before: startedBeforeUs } = q.query;
    const input = {
      orgId: req.principal!.orgId,
      limit: q.limit,
      ...(q.query.cursor !== undefined ? { cursor: q.query.cursor } : {}),
      ...(appId !== undefined ? { appId } : {}),
      ...(updatedAfterUs !== undefined ? { updatedAfterUs } : {}),
      ...(startedFromUs !== undefined ? { startedFromUs } : {}),
      ...(startedBeforeUs !== undefined ? { startedBeforeUs } : {}),
    };
    const include = q.query.include ?? new Set<string>();
    if (include.has('messages')) {
      const tools = include.has('tool_details');
      const page = await exportSessionsWithMessages(deps, {
        ...input,
        budget: { maxBytes: MAX_PAGE_BYTES, sizeOf: (row) => responseBytes(exportSessionWithMessages(row, tools)) },
      });
      const data = page.rows.map((row) => exportSessionWithMessages(row, tools));
      return { status: 200, body: { data, pagination: pagination(page) }, headers: q.headers };
    }
    const page = await exportSessions(deps, input);
    return { status: 200, body: { data: page.rows.map(exportSession), pagination: pagination(page) }, headers: q.headers };
  });

export const handler = lambdaHandler(createHandler, exportProductionDeps);
