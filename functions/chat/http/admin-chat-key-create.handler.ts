import { createAppKey } from '../../tenancy/http/admin-app-key-create';
import { httpRoute, lambdaHandler } from '../../kernel/http/kit';
import { readRequest } from '../../kernel/http/request-declaration';
import { adminKeysProductionDeps, type AdminKeysDeps } from '../../tenancy/wiring/admin-keys-wiring';
import { CHAT_ADMIN_REQUESTS } from '../openapi/chat-admin-requests';
import { CHAT_ROUTES } from '../chat-routes';

/** POST /admin/v1/apps/{appId}/chat-keys: a chat API key (`svc_chat_…`) bound to the app; shown once. */
export const createHandler = (deps: AdminKeysDeps) =>
  httpRoute(CHAT_ROUTES.adminChatKeyCreate, deps, async (req) => createAppKey(deps, 'chat', await readRequest(CHAT_ADMIN_REQUESTS.adminChatKeyCreate, req)));

export const handler = lambdaHandler(createHandler, adminKeysProductionDeps);
