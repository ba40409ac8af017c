/**
 * Area B's chat-turn requests, one declaration per operation (keyed by route id): the handlers read
 * their input with it and the OpenAPI document shows it. The bodies are the field tables of
 * chat/domain (chat-request.ts, responses-request.ts), read in the spec's order once the body is JSON
 * within its limit; the headers are read as sent (a session id is looked up by the use case, a key's
 * length is checked when it is claimed, after the body).
 */
import { bodyTooLargeMessage, MAX_CHAT_REQUEST_BYTES } from '../../kernel/domain/body-limits';
import { badRequest, DomainError } from '../../kernel/domain/errors';
import { utf8Length } from '../../kernel/domain/utf8';
import { idempotencyKeyHeader, textParam, type BodyRule } from '../../kernel/http/request-declaration';
import type { HttpRequest } from '../../kernel/http/kit-request';
import type { KeyCaller } from '../../tenancy/app/admit-request';
import { chatRequestSchema, parseChatRequest, type ChatRequest } from '../domain/chat-request';
import { parseResponsesRequest, responsesRequestSchema, type ResponsesRequest } from '../domain/responses-request';

/** A chat turn's JSON body, read by `parse` for the key's app: `Content-Type: application/json`, within MAX_CHAT_REQUEST_BYTES (413 past it). */
function turnBody<T>(schema: BodyRule<T>['schema'], parse: (body: Record<string, unknown>, appNameId: string) => T) {
  return {
    contentType: 'application/json',
    schema,
    required: true,
    read: (req) => {
      if (!/^application\/json\s*(;|$)/i.test(req.header('content-type') ?? '')) throw badRequest('Content-Type must be application/json');
      if (utf8Length(req.textBody()) > MAX_CHAT_REQUEST_BYTES) throw new DomainError('payload_too_large', bodyTooLargeMessage(MAX_CHAT_REQUEST_BYTES));
      const raw = req.jsonBody();
      return { raw, parsed: parse(raw, (req as HttpRequest<KeyCaller>).chat!.app.appNameId) };
    },
  } satisfies BodyRule<{ readonly raw: Record<string, unknown>; readonly parsed: T }>;
}

/** The headers both chat-turn routes take. */
const TURN_HEADERS = {
  'X-Chat-Session-ID': textParam({ format: 'uuid', description: 'Continues this session (as chatSessionId)' }),
  'Idempotency-Key': idempotencyKeyHeader(
    'A retry with the same key gets the first answer (Idempotent-Replayed: true) and runs nothing again; another request with the same key is 422; one still running is 409 with Retry-After',
  ),
};

export const CHAT_REQUESTS = {
  chatCompletionsCreate: { headers: TURN_HEADERS, body: turnBody<ChatRequest>(chatRequestSchema(), parseChatRequest) },
  responsesCreate: { headers: TURN_HEADERS, body: turnBody<ResponsesRequest>(responsesRequestSchema(), parseResponsesRequest) },
};
