import { getSessionTranscript } from '../app/export-lists';
import { exportRequest } from './export-query';
import { EXPORT_REQUESTS } from '../openapi/export-requests';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { exportMessage, exportSessionSubset } from '../domain/export-rows';
import { exportProductionDeps, type ExportFunctionDeps } from '../export-wiring';
import { EXPORT_ROUTES } from '../export-routes';

/** GET /api/v1/org/sessions/{sessionId}/messages: one session's transcript; `include=tool_details` adds tool markers. */
export const createHandler = (deps: ExportFunctionDeps) =>
  httpRoute(EXPORT_ROUTES.orgSessionMessages, deps, async (req) => {
    const q = exportRequest(req, EXPORT_REQUESTS.orgSessionMessages, deps.clock.nowUs());
    const include = q.query.include ?? new Set<string>();
    const t = await getSessionTranscript(deps, { orgId: req.principal!.orgId, sessionId: q.path.sessionId });
    const messages = t.messages.map((m) => exportMessage(m, include.has('tool_details')));
    return { status: 200, body: { data: { session: exportSessionSubset(t.session), messages, zdr: t.zdr } }, headers: q.answerHeaders };
  });

export const handler = lambdaHandler(createHandler, exportProductionDeps);
