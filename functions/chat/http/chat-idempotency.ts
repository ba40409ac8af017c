/**
 * Area B's answers to the platform's `Idempotency-Key` claims (docs/adr/0023): another request with the
 * key is a 422 and one still running a 409 with Retry-After, in area B's error shape; no key claims
 * nothing and remembers nothing.
 */
import { badRequest, BusyError, DomainError } from '../../platform/domain/errors';
import { claimIdempotencyKey, idempotencyKeyOf, type IdempotencyDeps } from '../../platform/http/idempotency-key';
import type { HttpRequest } from '../../platform/http/kit-request';

/** A claim area B can run under: a stored answer to replay, or the request's own to run and remember. */
export type ChatClaim =
  | { readonly state: 'replay'; readonly status: number; readonly body: unknown }
  | { readonly state: 'claimed'; remember(status: number, body: unknown): Promise<void>; forget(): Promise<void> };

const NO_KEY: ChatClaim = { state: 'claimed', remember: async () => undefined, forget: async () => undefined };

/**
 * Claims the request's key (its `Idempotency-Key`, as read) for the chat key that sent it. `request` gives what the fingerprint covers;
 * it is called only when a key was sent (an upload's digest is then worth computing).
 */
export async function claimChatRequest(
  deps: IdempotencyDeps,
  req: HttpRequest,
  input: { readonly routeId: string; readonly key: string | undefined; readonly request: () => unknown; readonly inFlightMs: number },
): Promise<ChatClaim> {
  const key = idempotencyKeyOf(input.key, badRequest);
  if (key === undefined) return NO_KEY;
  const claim = await claimIdempotencyKey(deps, {
    scope: `chat:${req.chat!.keyId}:${input.routeId}:${key}`,
    request: input.request(),
    inFlightMs: input.inFlightMs,
  });
  if (claim.state === 'conflict') throw new DomainError('unprocessable', 'This Idempotency-Key was used with a different request');
  if (claim.state === 'in_flight') throw new BusyError('A request with this Idempotency-Key is still running; retry when it has finished', 1);
  return claim;
}
