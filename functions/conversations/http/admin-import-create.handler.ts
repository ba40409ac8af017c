import { importSessions } from '../app/import-sessions';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { IMPORT_REQUESTS } from '../openapi/import-requests';
import { conversationProductionDeps, type ConversationAdminDeps } from '../conversation-wiring';
import { CONVERSATION_ROUTES } from '../conversation-routes';

/**
 * POST /admin/v1/apps/{appId}/imports: historical sessions as JSONL, one session with its messages per
 * line. Every line is validated before anything is written (conversations/openapi/import-requests.ts):
 * one bad line rejects the import (400 naming it).
 */
export const createHandler = (deps: ConversationAdminDeps) =>
  httpRoute(CONVERSATION_ROUTES.adminImportCreate, deps, async (req) => {
    const { path, body: records } = await readRequest(IMPORT_REQUESTS.adminImportCreate, req);
    const result = await importSessions(deps, { appId: path.appId, records });
    const data = { imported: result.sessionIds.length, sessionIds: result.sessionIds };
    return { status: 201, body: { data }, audit: { orgId: result.orgId, after: { imported: data.imported } } };
  });

export const handler = lambdaHandler(createHandler, conversationProductionDeps);
