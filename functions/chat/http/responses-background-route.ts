/**
 * `POST /responses` with `background: true`: answered at once with the response `queued` (or, with
 * `stream: true`, its events as the run goes), under the request's Idempotency-Key like a turn: a retry
 * gets the same response and queues nothing again.
 */
import type { ChatClaim } from './chat-turn-route';
import { claimChatRequest, type TurnHeaders } from './chat-turn-route';
import { SSE_HEADERS } from './turn-streams';
import { backgroundResponseStream } from './responses-presenters';
import type { ResponseObject } from '../domain/response-object';
import { startBackgroundResponse } from '../app/background-responses';
import type { ChatRequest } from '../domain/chat-request';
import type { ResponsesRequest } from '../domain/responses-request';
import { badRequest } from '../../kernel/domain/errors';
import type { HttpRequest } from '../../kernel/http/kit-request';
import type { KeyCaller } from '../../tenancy/app/admit-request';
import type { ChatFunctionDeps } from '../wiring/chat-wiring';
import { responseIdRef } from '../domain/response-ids';

/** A background POST writes two items and sends a message: a key held longer than this belongs to a request that died. */
const BACKGROUND_IN_FLIGHT_MS = 30_000;

export async function runBackgroundRoute(
  deps: ChatFunctionDeps,
  req: HttpRequest<KeyCaller>,
  input: {
    readonly headers: TurnHeaders;
    readonly parsed: ResponsesRequest;
    readonly request: ChatRequest;
    readonly fingerprint: unknown;
    /** Stores the request's input files, once it holds its Idempotency-Key (as a turn's). */
    readonly complete?: (request: ChatRequest) => Promise<ChatRequest>;
  },
) {
  const app = req.chat!.app;
  if (app.settings.zeroDataRetention) throw badRequest('background: an app with Zero Data Retention stores no response, so none can run in the background');
  const headerSessionId = input.headers['X-Chat-Session-ID'];
  const claim: ChatClaim = await claimChatRequest(deps, req, {
    routeId: 'responsesCreate',
    key: input.headers['Idempotency-Key'],
    request: () => ({ body: input.fingerprint, headerSessionId: headerSessionId ?? null }),
    inFlightMs: BACKGROUND_IN_FLIGHT_MS,
  });
  let body: ResponseObject;
  if (claim.state === 'replay') body = claim.body as ResponseObject;
  else {
    try {
      body = (await startBackgroundResponse(deps, {
        principal: req.chat!,
        parsed: input.parsed,
        request: input.complete ? await input.complete(input.request) : input.request,
        ...(headerSessionId !== undefined ? { headerSessionId } : {}),
      })) as ResponseObject;
    } catch (err) {
      await claim.forget();
      throw err;
    }
    await claim.remember(200, body);
  }
  const headers = { 'X-Chat-Session-ID': body.chatSessionId, ...(claim.state === 'replay' ? { 'Idempotent-Replayed': 'true' } : {}) };
  if (!input.request.stream) return { status: 200, headers, body };
  const ref = responseIdRef(body.id)!;
  const load = async () => (await deps.responses.get(ref.sessionId, ref.messageId))?.body as ResponseObject | undefined;
  return { status: 200, headers: { ...headers, ...SSE_HEADERS }, stream: backgroundResponseStream(body, load) };
}
