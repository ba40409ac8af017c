import { issueCredential } from '../../platform/app/issue-credential';
import { adminCredential } from '../../platform/http/admin-presenters';
import { httpRoute } from '../../platform/http/kit';
import { readRequest } from '../../platform/http/request-declaration';
import { CHAT_ADMIN_REQUESTS } from '../openapi/chat-admin-requests';
import { lambdaHandler } from '../../platform/http/lambda';
import { adminKeysProductionDeps, type AdminKeysDeps } from '../../platform/wiring/admin-keys-wiring';

/** POST /admin/v1/apps/{appId}/chat-keys: a chat API key (`svc_chat_…`) bound to the app; shown once. */
export const createHandler = (deps: AdminKeysDeps) =>
  httpRoute('adminChatKeyCreate', deps, async (req) => {
    const { path, body: input } = await readRequest(CHAT_ADMIN_REQUESTS.adminChatKeyCreate, req);
    const issued = await issueCredential(deps, {
      kind: 'chat',
      appId: path.appId,
      ...(input.expiresAt !== undefined ? { expiresAtUs: input.expiresAt } : {}),
      ...(input.name ? { name: input.name } : {}),
    });
    return { status: 201, body: { data: adminCredential(issued.credential, issued.key) } };
  });

export const handler = lambdaHandler(createHandler, adminKeysProductionDeps);
