import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest, strictQuery } from '../../kernel/http/request-declaration';
import { consoleOrgOf } from '../../tenancy/app/admit-console-member';
import { deleteConsumer } from '../app/delete-resources';
import { CONVERSATION_CONSOLE_REQUESTS } from '../openapi/conversation-console-requests';
import { CONVERSATION_ROUTES } from '../conversation-routes';
import { consoleConversationProductionDeps, type ConsoleConversationDeps } from '../console-conversation-wiring';
import { adminTombstone } from './conversation-admin-presenters';

/** DELETE /console/v1/orgs/{orgId}/consumers/{consumerId}: the admin consumer delete (the consumer and its sessions), within the caller's org. */
export const createHandler = (deps: ConsoleConversationDeps) =>
  httpRoute(CONVERSATION_ROUTES.consoleConsumerDelete, deps, async (req) => {
    const { path } = await readRequest(CONVERSATION_CONSOLE_REQUESTS.consoleConsumerDelete, req, { queryPolicy: strictQuery });
    const tombstone = await deleteConsumer(deps, { consumerId: path.consumerId, orgId: consoleOrgOf(req).orgId });
    return { status: 200, body: { data: { tombstone: adminTombstone(tombstone) } } };
  });

export const handler = lambdaHandler(createHandler, consoleConversationProductionDeps);
