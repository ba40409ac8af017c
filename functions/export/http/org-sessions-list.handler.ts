import { exportSessions } from '../app/export-lists';
import { parseTimestampParam, parseUuidParam } from '../domain/export-params';
import { pagedExportQuery } from './export-query';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { exportSession, pagination } from './export-presenters';
import { exportProductionDeps, type ExportFunctionDeps } from '../wiring/export-wiring';

/** GET /api/v1/org/sessions: sessions across the org's apps, by last_activity_at then id, descending. */
export const createHandler = (deps: ExportFunctionDeps) =>
  httpRoute('orgSessionsList', deps, async (req) => {
    const q = pagedExportQuery(req, ['app_id', 'updated_after', 'started_after', 'started_before'], deps.clock.nowUs());
    const appId = parseUuidParam('app_id', q.params.app_id);
    const updatedAfterUs = parseTimestampParam('updated_after', q.params.updated_after);
    const startedFromUs = parseTimestampParam('started_after', q.params.started_after);
    const startedBeforeUs = parseTimestampParam('started_before', q.params.started_before);
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
