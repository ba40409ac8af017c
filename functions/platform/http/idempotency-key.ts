/**
 * The `Idempotency-Key` of area B's POSTs (chat turns and uploads, docs/adr/0023): claimed before the
 * work runs; a repeat gets the stored answer, another request with the key is a 422, one still
 * running a 409 with Retry-After. The claim stores the answer of work that completed, and forgets the
 * key of work that was refused or failed, so a retry runs afresh. (Area C's checkout keeps its own
 * flow: its answers are ACP `Error` objects, functions/acp/http/acp-checkout.ts.)
 */
import { requestFingerprint } from '../domain/digest';
import { badRequest, BusyError, DomainError } from '../domain/errors';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { IdempotencyStore } from '../ports/platform-ports';
import type { HttpRequest } from './kit-request';

export type IdempotencyClaim =
  | { readonly state: 'replay'; readonly status: number; readonly body: unknown }
  | { readonly state: 'claimed'; remember(status: number, body: unknown): Promise<void>; forget(): Promise<void> };

const NO_KEY: IdempotencyClaim = { state: 'claimed', remember: async () => undefined, forget: async () => undefined };

/**
 * Claims the request's key (no key: a claim that remembers nothing). `request` gives what the fingerprint
 * covers; it is called only when a key was sent (an upload's digest is then worth computing).
 */
export async function claimIdempotencyKey(
  deps: { readonly idempotency: IdempotencyStore; readonly logger: Logger },
  req: HttpRequest,
  input: { readonly routeId: string; readonly request: () => unknown; readonly inFlightMs: number },
): Promise<IdempotencyClaim> {
  const key = req.header('idempotency-key');
  if (key === undefined) return NO_KEY;
  if (key.length < 1 || key.length > 255) throw badRequest('Idempotency-Key must be 1 to 255 characters');
  const scope = `chat:${req.chat!.keyId}:${input.routeId}:${key}`;
  const begun = await deps.idempotency.begin(scope, requestFingerprint(input.request()), Date.now(), input.inFlightMs);
  if (begun.state === 'conflict') throw new DomainError('unprocessable', 'This Idempotency-Key was used with a different request');
  if (begun.state === 'in_flight') throw new BusyError('A request with this Idempotency-Key is still running; retry when it has finished', 1);
  if (begun.state === 'replay') return begun;
  return {
    state: 'claimed',
    remember: (status, body) =>
      deps.idempotency.finish(scope, { status, body }).catch((err: unknown) => deps.logger.error('idempotency answer not stored', err as Error)),
    forget: () => deps.idempotency.finish(scope, undefined).catch(() => undefined),
  };
}
