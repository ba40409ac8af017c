import { getSessionTranscript } from '../app/export-lists';
import { exportQuery } from './export-query';
import { EXPORT_REQUESTS } from '../openapi/export-requests';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { exportMessage, exportSessionSubset } from '../domain/export-rows';
import { exportProductionDeps, type ExportFunctionDeps } from '../wiring/export-wiring';
import { EXPORT_ROUTES } from '../export-routes';

/** GET /api/v1/org/sessions/{sessionId}/messages: one session's transcript; `include=tool_details` adds tool markers. */
export const createHandler = (deps: ExportFunctionDeps) =>
  httpRoute(EXPORT_ROUTES.orgSessionMessages, deps, async (req) => {
    const q = exportQuery(req, EXPORT_REQUESTS.orgSessionMessages.query, deps.clock.nowUs());
    const include = q.params.include ?? new Set<string>();
    const t = await getSessionTranscript(deps, { orgId: req.principal!.orgId, sessionId: req.path.sessionId ?? '' });
    const messages = t.messages.map((m) => exportMessage(m, include.has('tool_details')));
    return { status: 200, body: { data: { session: exportSessionSubset(t.session), messages, zdr: t.zdr } }, headers: q.headers };
  });

export const handler = lambdaHandler(createHandler, exportProductionDeps);
