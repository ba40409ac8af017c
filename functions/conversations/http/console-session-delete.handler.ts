import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { deleteSession } from '../app/delete-resources';
import { CONVERSATION_CONSOLE_REQUESTS } from '../openapi/conversation-console-requests';
import { CONVERSATION_ROUTES } from '../conversation-routes';
import { consoleConversationProductionDeps, type ConsoleConversationDeps } from '../console-conversation-wiring';
import { adminTombstone } from './conversation-admin-presenters';

/** DELETE /console/v1/orgs/{orgId}/sessions/{sessionId}: the admin session delete, within the caller's org (tombstone cause `consumer_deleted`). */
export const createHandler = (deps: ConsoleConversationDeps) =>
  httpRoute(CONVERSATION_ROUTES.consoleSessionDelete, deps, async (req) => {
    const { path } = await readRequest(CONVERSATION_CONSOLE_REQUESTS.consoleSessionDelete, req, { queryPolicy: strictQuery });
    const tombstone = await deleteSession(deps, { sessionId: path.sessionId, orgId: consoleOrgOf(req).orgId });
    return { status: 200, body: { data: { tombstone: adminTombstone(tombstone) } } };
  });

export const handler = lambdaHandler(createHandler, consoleConversationProductionDeps);
