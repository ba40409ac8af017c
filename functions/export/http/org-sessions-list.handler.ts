import { exportSessions } from '../app/export-lists';
import { pagedExportQuery } from './export-query';
import { EXPORT_REQUESTS } from '../openapi/export-requests';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { exportSession, pagination } from './export-presenters';
import { exportProductionDeps, type ExportFunctionDeps } from '../wiring/export-wiring';

/** GET /api/v1/org/sessions: sessions across the org's apps, by last_activity_at then id, descending. */
export const createHandler = (deps: ExportFunctionDeps) =>
  httpRoute('orgSessionsList', deps, async (req) => {
    const q = pagedExportQuery(req, EXPORT_REQUESTS.orgSessionsList.query, deps.clock.nowUs());
    const { app_id: appId, updated_after: updatedAfterUs, started_after: startedFromUs, started_before: startedBeforeUs } = q.params;
    const page = await exportSessions(deps, {
      orgId: req.principal!.orgId,
      limit: q.limit,
      ...(q.params.cursor !== undefined ? { cursor: q.params.cursor } : {}),
      ...(appId !== undefined ? { appId } : {}),
      ...(updatedAfterUs !== undefined ? { updatedAfterUs } : {}),
      ...(startedFromUs !== undefined ? { startedFromUs } : {}),
      ...(startedBeforeUs !== undefined ? { startedBeforeUs } : {}),
    });
    return { status: 200, body: { data: page.rows.map(exportSession), pagination: pagination(page) }, headers: q.headers };
  });

export const handler = lambdaHandler(createHandler, exportProductionDeps);
