/**
 * Area B's part of the OpenAPI document: one entry per public chat route (chat/chat-routes.ts), joined
 * with the other areas' in functions/openapi/operations.ts.
 */
import { json, type OperationDoc } from '../../kernel/openapi-kit';
import * as s from './chat-schemas';
import { CHAT_REQUESTS } from './chat-requests';
import { FILE_REQUESTS } from './file-requests';
import { MODEL_REQUESTS } from './model-requests';
import { RESPONSE_REQUESTS } from './response-requests';
import { conversationItemList } from './conversation-api-schemas';
import { CONVERSATION_OPERATIONS } from './conversation-api-operations';

const TURN_ERRORS = [400, 401, 402, 403, 404, 409, 413, 422, 429, 500, 503];

export const CHAT_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  chatCompletionsCreate: {
    tag: 'Chat',
    summary: 'Run a chat turn',
    description: 'The OpenAI chat-completion shape plus `chatSessionId`. With `stream: true` the answer is Server-Sent Events.',
    request: CHAT_REQUESTS.chatCompletionsCreate,
    ok: { status: 200, description: 'The answer', content: { 'application/json': s.chatCompletion, 'text/event-stream': s.chatStream } },
    errors: TURN_ERRORS,
  },
  responsesCreate: {
    tag: 'Chat',
    summary: 'Run a chat turn (Responses API)',
    description:
      "OpenAI's Responses shape plus `chatSessionId`, over the same sessions, usage, files and tools as chat completions. `previous_response_id` continues that response's session; `instructions` hold for this response only. With `stream: true` the answer is the Responses semantic events.",
    request: CHAT_REQUESTS.responsesCreate,
    ok: { status: 200, description: 'The response', content: { 'application/json': s.response, 'text/event-stream': s.responseStream } },
    errors: TURN_ERRORS,
  },
  responsesGet: {
    tag: 'Chat',
    summary: 'Get a stored response',
    description:
      'A response of the key’s app as it was answered, while its session exists (a request with `store: false`, or an app with Zero Data Retention, stores none). With `stream=true` it is sent again as the events of its stream (one text delta per message), from after `starting_after` when given.',
    request: RESPONSE_REQUESTS.responsesGet,
    ok: { status: 200, description: 'The response', content: { 'application/json': s.response, 'text/event-stream': s.responseStream } },
    errors: [400, 401, 403, 404, 429, 500, 503],
  },
  responsesDelete: {
    tag: 'Chat',
    summary: 'Delete a stored response',
    description: 'The response leaves these routes; its session, messages and the org export stay as the deletion rules of sessions keep them.',
    request: RESPONSE_REQUESTS.responsesDelete,
    ok: { status: 200, description: 'Deleted', content: json(s.responseDeleted) },
    errors: [400, 401, 403, 404, 429, 500, 503],
  },
  responsesInputItems: {
    tag: 'Chat',
    summary: 'List a stored response’s input items',
    description:
      'The items the response’s request added to its session (a continued response lists only its own), shown as a conversation’s items are, in a cursor list: `after` an item id, `limit` 1 to 100 (20), `order` desc (the default) or asc.',
    request: RESPONSE_REQUESTS.responsesInputItems,
    ok: { status: 200, description: 'A page of items', content: json(conversationItemList) },
    errors: [400, 401, 403, 404, 429, 500, 503],
  },
  chatFilesCreate: {
    tag: 'Chat',
    summary: 'Upload a file for later chat turns',
    description: 'multipart/form-data with one `file` part, up to 20 MiB.',
    request: FILE_REQUESTS.chatFilesCreate,
    ok: { status: 201, description: 'The stored file', content: json(s.uploadedFile) },
    errors: [400, 401, 403, 404, 409, 413, 422, 429, 500, 503],
  },
  modelsList: {
    tag: 'Chat',
    summary: 'List the models the key may use',
    description:
      "OpenAI's model list: the key's app, its `appNameId` as the id (the `model` of a chat turn), created at the app's creation, owned by `platform`.",
    ok: { status: 200, description: 'The key’s app as the one model', content: json(s.modelList) },
    errors: [401, 403, 429, 500, 503],
  },
  modelGet: {
    tag: 'Chat',
    summary: 'Get a model',
    description: "The key's app as an OpenAI model when `{model}` is its `appNameId`; any other name is the 404 a chat turn with that `model` gets.",
    request: MODEL_REQUESTS.modelGet,
    ok: { status: 200, description: 'The model', content: json(s.model) },
    errors: [401, 403, 404, 429, 500, 503],
  },
  ...CONVERSATION_OPERATIONS,
};
