import { importSessions, type ImportRecord } from '../app/import-sessions';
import { badRequest } from '../../platform/domain/errors';
import { httpRoute } from '../../platform/http/kit';
import { lambdaHandler } from '../../platform/http/lambda';
import { parseWith } from '../../platform/http/validation';
import { conversationProductionDeps, type ConversationAdminDeps } from '../wiring/conversation-wiring';
import { IMPORT_LINE } from '../openapi/admin-import-requests';
import { CONVERSATION_ROUTES } from '../conversation-routes';

/** Keeps one import call inside API Gateway's 29 s integration timeout; split larger files. */
const MAX_LINES = 200;

/**
 * POST /admin/v1/apps/{appId}/imports: historical sessions as JSONL, one session with its messages per
 * line. Every line is validated before anything is written: one bad line rejects the import (400 naming it).
 */
export const createHandler = (deps: ConversationAdminDeps) =>
  httpRoute(CONVERSATION_ROUTES.adminImportCreate, deps, async (req) => {
    const lines = req
      .textBody()
      .split('\n')
      .map((l) => l.trim());
    const records: ImportRecord[] = [];
    lines.forEach((text, i) => {
      if (!text) return;
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        throw badRequest(`Invalid line ${i + 1}: not JSON`);
      }
      const r = parseWithLine(i + 1, raw);
      records.push({
        session: { ...r.session, startedAtUs: r.session.startedAt },
        consumer: r.consumer,
        messages: r.messages.map((m) => ({ ...m, createdAtUs: m.createdAt })),
      });
    });
    if (records.length === 0) throw badRequest('Invalid body: expected JSONL with at least one session');
    if (records.length > MAX_LINES) throw badRequest(`Invalid body: at most ${MAX_LINES} sessions per import`);
    const result = await importSessions(deps, { appId: req.path.appId ?? '', records });
    return { status: 201, body: { data: { imported: result.sessionIds.length, sessionIds: result.sessionIds } } };
  });

function parseWithLine(n: number, raw: unknown) {
  try {
    return parseWith(IMPORT_LINE, raw);
  } catch (err) {
    throw badRequest(`Invalid line ${n}: ${(err as Error).message.replace(/^Invalid /, '')}`);
  }
}

export const handler = lambdaHandler(createHandler, conversationProductionDeps);
