/**
 * The one `Idempotency-Key` mechanism of the platform's POSTs: chat turns and uploads (area B,
 * docs/adr/0023) and checkout (area C). A key is claimed before the work runs; a repeat gets the stored
 * answer, another request with the key is a conflict, one still running is in flight. The claim stores
 * the answer of work that completed, and forgets the key of work that was refused or failed, so a retry
 * runs afresh. Each area turns the outcomes into its own answer shapes (area B's `{error}` bodies, ACP
 * `Error` objects with `Idempotent-Replayed`), so the rules are written once and the shapes per area.
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { requestFingerprint } from '../domain/digest';
import type { IdempotencyStore } from '../app/kernel-ports';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from './request-declaration';

/** What a claimed key can be: a replay of a stored answer, a conflict, still in flight, or the caller's to run. */
export type IdempotencyClaim =
  | { readonly state: 'replay'; readonly status: number; readonly body: unknown }
  | { readonly state: 'conflict' }
  | { readonly state: 'in_flight' }
  | {
      readonly state: 'claimed';
      /** Stores the answer for repeats; a store failure is logged, the answer is still given. */
      remember(status: number, body: unknown): Promise<void>;
      /** Forgets the key: the request was refused or failed, so a retry runs afresh. */
      forget(): Promise<void>;
    };

export interface IdempotencyDeps {
  readonly idempotency: IdempotencyStore;
  readonly logger: Logger;
}

export const IDEMPOTENCY_KEY_LENGTH_MESSAGE = `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`;

/**
 * The request's key (as its `Idempotency-Key` header rule read it), undefined when none was sent; a key
 * of the wrong length is `refuse`d with the one message. Checked when the key is claimed, after the
 * body: that is the order the areas answer in.
 */
export function idempotencyKeyOf(key: string | undefined, refuse: (message: string) => Error): string | undefined {
  if (key !== undefined && (key.length < 1 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH)) throw refuse(IDEMPOTENCY_KEY_LENGTH_MESSAGE);
  return key;
}

/**
 * Claims `scope` (the caller, the route and the key, plus what else tells two requests apart) for a
 * request whose fingerprint covers `request`. `inFlightMs` is how long a claim holds before the next
 * request with the key may take it over (its request crashed or timed out).
 */
export async function claimIdempotencyKey(
  deps: IdempotencyDeps,
  input: { readonly scope: string; readonly request: unknown; readonly inFlightMs?: number },
): Promise<IdempotencyClaim> {
  const begun = await deps.idempotency.begin(input.scope, requestFingerprint(input.request), Date.now(), input.inFlightMs);
  if (begun.state !== 'new') return begun;
  return {
    state: 'claimed',
    remember: (status, body) =>
      deps.idempotency.finish(input.scope, { status, body }).catch((err: unknown) => deps.logger.error('idempotency answer not stored', err as Error)),
    forget: () => deps.idempotency.finish(input.scope, undefined).catch(() => undefined),
  };
}
