/**
 * Area B's part of the OpenAPI document: one entry per public chat route (chat/chat-routes.ts), joined
 * with the other areas' in functions/openapi/operations.ts.
 */
import * as z from 'zod';
import { json, type OperationDoc } from '../../platform/openapi/openapi-kit';
import * as s from './chat-schemas';
import { chatRequestSchema } from '../domain/chat-request';
import { responsesRequestSchema } from '../domain/responses-request';

/** The headers both chat-turn routes (chat completions and responses) take. */
const TURN_HEADERS = {
  'X-Chat-Session-ID': { schema: z.string().meta({ format: 'uuid' }), description: 'Continues this session (as chatSessionId)' },
  'Idempotency-Key': {
    schema: z.string().min(1).max(255),
    description:
      'A retry with the same key gets the first answer (Idempotent-Replayed: true) and runs nothing again; another request with the same key is 422; one still running is 409 with Retry-After',
  },
};
const TURN_ERRORS = [400, 401, 402, 403, 404, 409, 413, 422, 429, 500, 503];

export const CHAT_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  chatCompletionsCreate: {
    tag: 'Chat',
    summary: 'Run a chat turn',
    description: 'The OpenAI chat-completion shape plus `chatSessionId`. With `stream: true` the answer is Server-Sent Events.',
    headers: TURN_HEADERS,
    body: { contentType: 'application/json', schema: chatRequestSchema(), required: true },
    ok: { status: 200, description: 'The answer', content: { 'application/json': s.chatCompletion, 'text/event-stream': s.chatStream } },
    errors: TURN_ERRORS,
  },
  responsesCreate: {
    tag: 'Chat',
    summary: 'Run a chat turn (Responses API)',
    description:
      "OpenAI's Responses shape plus `chatSessionId`, over the same sessions, usage, files and tools as chat completions. `previous_response_id` continues that response's session; `instructions` hold for this response only. With `stream: true` the answer is the Responses semantic events.",
    headers: TURN_HEADERS,
    body: { contentType: 'application/json', schema: responsesRequestSchema(), required: true },
    ok: { status: 200, description: 'The response', content: { 'application/json': s.response, 'text/event-stream': s.responseStream } },
    errors: TURN_ERRORS,
  },
  chatFilesCreate: {
    tag: 'Chat',
    summary: 'Upload a file for later chat turns',
    description: 'multipart/form-data with one `file` part, up to 20 MiB.',
    headers: {
      'X-Chat-Session-ID': { schema: z.string().meta({ format: 'uuid' }), description: "Binds the file to that session's consumer" },
      'Idempotency-Key': {
        schema: z.string().min(1).max(255),
        description:
          'A retry with the same key and file gets the first answer (Idempotent-Replayed: true) and stores nothing again; another file with the same key is 422',
      },
    },
    body: { contentType: 'multipart/form-data', schema: s.uploadRequest, required: true },
    ok: { status: 201, description: 'The stored file', content: json(s.uploadedFile) },
    errors: [400, 401, 403, 404, 409, 413, 422, 429, 500, 503],
  },
};
