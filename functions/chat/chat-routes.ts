/**
 * The routes of area B, the Chat Completions API and its Responses twin (chat keys), and the admin route
 * that issues chat keys.
 * Joined into the one route table by functions/routes.ts; synth loads this file, so it imports only types and leaf modules.
 */
import { MAX_CHAT_REQUEST_BYTES } from '../kernel/domain/body-limits';
import { ADMIN_API_BASE as ADMIN } from '../kernel/domain/admin-api-base';
import { adminRoute, routeTable } from '../kernel/route-vocabulary';
import { uuidPathParam } from '../kernel/domain/ids';

const APP_ID = uuidPathParam('The app’s id (a UUID)');

const CHAT = '/api/v1/chat';
/** The chat API itself: a chat key, counted against that key, errors in the area's shape. */
const CHAT_KEY_ROUTE = { area: 'chat', auth: 'chatKey', rateLimit: 'chatKey' } as const;
/** A model turn, in either API's shape: streamed, up to 5 minutes, a bounded JSON body. */
const TURN_ROUTE = {
  ...CHAT_KEY_ROUTE,
  method: 'POST',
  body: 'json',
  grants: ['table:read', 'table:write', 'model:invoke', 'bucket:read'],
  timeoutSeconds: 300,
  memoryMb: 1024,
  stream: true,
  maxBodyBytes: MAX_CHAT_REQUEST_BYTES,
} as const;
/**
 * The key's app as an OpenAI model, for clients that list models before their first turn. Reads only (no audit, no
 * usage); `table:write` is the per-key rate counter's and the key's last use.
 */
const MODEL_READ_ROUTE = { ...CHAT_KEY_ROUTE, method: 'GET', body: 'none', grants: ['table:read', 'table:write'], memoryMb: 256 } as const;

export const CHAT_ROUTES = routeTable({
  chatCompletionsCreate: { ...TURN_ROUTE, path: `${CHAT}/completions`, handler: 'chat/http/chat-completions-create' },
  // Its input_image / input_file parts store inline and fetched files as an upload does (ADR 0048).
  responsesCreate: {
    ...TURN_ROUTE,
    path: '/api/v1/responses',
    handler: 'chat/http/responses-create',
    grants: [...TURN_ROUTE.grants, 'bucket:write', 'ocr:start'],
  },
  chatFilesCreate: {
    ...CHAT_KEY_ROUTE,
    method: 'POST',
    path: `${CHAT}/files`,
    handler: 'chat/http/chat-files-create',
    body: 'multipart',
    grants: ['table:read', 'table:write', 'bucket:read', 'bucket:write', 'ocr:start'],
    timeoutSeconds: 120,
    memoryMb: 1024,
    origin: 'uploadService',
  },
  modelsList: { ...MODEL_READ_ROUTE, path: '/api/v1/models', handler: 'chat/http/models-list' },
  modelGet: { ...MODEL_READ_ROUTE, path: '/api/v1/models/{model}', handler: 'chat/http/model-get' },
  adminChatKeyCreate: adminRoute({
    method: 'POST',
    path: `${ADMIN}/apps/{appId}/chat-keys`,
    pathParams: { appId: APP_ID },
    handler: 'chat/http/admin-chat-key-create',
    body: 'json',
    grants: ['table:read', 'table:write', 'apiKeys:manage'],
  }),
});
