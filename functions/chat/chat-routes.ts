/**
 * The routes of area B, the Chat Completions API and its Responses twin (chat keys), and the admin route
 * that issues chat keys.
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { MAX_CHAT_REQUEST_BYTES } from '../platform/domain/body-limits';
import { ADMIN_API_BASE as ADMIN } from '../platform/domain/admin-api-base';
import { uuidPathParam } from '../platform/domain/ids';
import type { RouteDef } from '../routes';

const APP_ID = uuidPathParam('The app’s id (a UUID)');

const CHAT = '/api/v1/chat';

export const CHAT_ROUTES: readonly RouteDef[] = [
  {
    id: 'chatCompletionsCreate',
    method: 'POST',
    path: `${CHAT}/completions`,
    handler: 'chat/http/chat-completions-create',
    area: 'chat',
    auth: 'chatKey',
    rateLimit: 'chatKey',
    body: 'json',
    grants: ['table:read', 'table:write', 'model:invoke', 'bucket:read'],
    timeoutSeconds: 300,
    memoryMb: 1024,
    stream: true,
    maxBodyBytes: MAX_CHAT_REQUEST_BYTES,
  },
  {
    id: 'responsesCreate',
    method: 'POST',
    path: '/api/v1/responses',
    handler: 'chat/http/responses-create',
    area: 'chat',
    auth: 'chatKey',
    rateLimit: 'chatKey',
    body: 'json',
    grants: ['table:read', 'table:write', 'model:invoke', 'bucket:read'],
    timeoutSeconds: 300,
    memoryMb: 1024,
    stream: true,
    maxBodyBytes: MAX_CHAT_REQUEST_BYTES,
  },
  {
    id: 'chatFilesCreate',
    method: 'POST',
    path: `${CHAT}/files`,
    handler: 'chat/http/chat-files-create',
    area: 'chat',
    auth: 'chatKey',
    rateLimit: 'chatKey',
    body: 'multipart',
    grants: ['table:read', 'table:write', 'bucket:read', 'bucket:write', 'ocr:start'],
    timeoutSeconds: 120,
    memoryMb: 1024,
    origin: 'uploadService',
  },
  {
    id: 'adminChatKeyCreate',
    method: 'POST',
    path: `${ADMIN}/apps/{appId}/chat-keys`,
    pathParams: { appId: APP_ID },
    handler: 'chat/http/admin-chat-key-create',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write', 'apiKeys:manage'],
  },
];
