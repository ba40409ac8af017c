/**
 * The routes of area B, the Chat Completions API, its Responses twin and the Conversations API (chat
 * keys), and the admin route that issues chat keys.
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

/** A stored response of the Responses API: read or removed by the key of its app. */
const RESPONSE_ROUTE = { ...CHAT_KEY_ROUTE, body: 'none', grants: ['table:read', 'table:write'], memoryMb: 256 } as const;
const RESPONSE = '/api/v1/responses/{response_id}';
const CONVERSATIONS = '/api/v1/conversations';
const CONVERSATION = `${CONVERSATIONS}/{conversation_id}`;
/**
 * The Conversations API over the app's chat sessions: table reads and writes only (no model, no bucket;
 * a deleted conversation's files are released in the table and their bytes go with the file cleanup).
 */
const CONVERSATION_ROUTE = { ...CHAT_KEY_ROUTE, grants: ['table:read', 'table:write'], memoryMb: 512 } as const;
const CONVERSATION_READ = { ...CONVERSATION_ROUTE, method: 'GET', body: 'none' } as const;
const CONVERSATION_WRITE = { ...CONVERSATION_ROUTE, method: 'POST', body: 'json', maxBodyBytes: MAX_CHAT_REQUEST_BYTES } as const;
const CONVERSATION_DELETE = { ...CONVERSATION_ROUTE, method: 'DELETE', body: 'none' } as const;

export const CHAT_ROUTES = routeTable({
  chatCompletionsCreate: { ...TURN_ROUTE, path: `${CHAT}/completions`, handler: 'chat/http/chat-completions-create' },
  // Its input_image / input_file parts store inline and fetched files as an upload does (ADR 0048); a
  // background response's run is queued (ADR 0051).
  responsesCreate: {
    ...TURN_ROUTE,
    path: '/api/v1/responses',
    handler: 'chat/http/responses-create',
    grants: [...TURN_ROUTE.grants, 'bucket:write', 'ocr:start', 'responses:send'],
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
  // `stream=true` replays the stored response as its events.
  responsesGet: { ...RESPONSE_ROUTE, method: 'GET', path: RESPONSE, handler: 'chat/http/responses-get', stream: true },
  responsesDelete: { ...RESPONSE_ROUTE, method: 'DELETE', path: RESPONSE, handler: 'chat/http/responses-delete' },
  responsesCancel: { ...RESPONSE_ROUTE, method: 'POST', path: `${RESPONSE}/cancel`, handler: 'chat/http/responses-cancel' },
  responsesInputItems: { ...RESPONSE_ROUTE, method: 'GET', path: `${RESPONSE}/input_items`, handler: 'chat/http/responses-input-items' },
  modelsList: { ...MODEL_READ_ROUTE, path: '/api/v1/models', handler: 'chat/http/models-list' },
  modelGet: { ...MODEL_READ_ROUTE, path: '/api/v1/models/{model}', handler: 'chat/http/model-get' },
  conversationsCreate: { ...CONVERSATION_WRITE, path: CONVERSATIONS, handler: 'chat/http/conversations-create' },
  conversationGet: { ...CONVERSATION_READ, path: CONVERSATION, handler: 'chat/http/conversation-get' },
  conversationUpdate: { ...CONVERSATION_WRITE, path: CONVERSATION, handler: 'chat/http/conversation-update' },
  conversationDelete: { ...CONVERSATION_DELETE, path: CONVERSATION, handler: 'chat/http/conversation-delete' },
  conversationItemsList: { ...CONVERSATION_READ, path: `${CONVERSATION}/items`, handler: 'chat/http/conversation-items-list' },
  conversationItemsCreate: { ...CONVERSATION_WRITE, path: `${CONVERSATION}/items`, handler: 'chat/http/conversation-items-create' },
  conversationItemGet: { ...CONVERSATION_READ, path: `${CONVERSATION}/items/{item_id}`, handler: 'chat/http/conversation-item-get' },
  conversationItemDelete: { ...CONVERSATION_DELETE, path: `${CONVERSATION}/items/{item_id}`, handler: 'chat/http/conversation-item-delete' },
  adminChatKeyCreate: adminRoute({
    method: 'POST',
    path: `${ADMIN}/apps/{appId}/chat-keys`,
    pathParams: { appId: APP_ID },
    handler: 'chat/http/admin-chat-key-create',
    body: 'json',
    grants: ['table:read', 'table:write', 'apiKeys:manage'],
  }),
});
