/**
 * The platform's one Idempotency-Key mechanism, under every outcome of the store: the areas (chat turns,
 * uploads, ACP checkout) only shape these outcomes, so the rules are proven once here.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it } from 'vitest';
import type { IdempotencyBegin, IdempotencyStore } from '../../functions/kernel/app/kernel-ports';
import { claimIdempotencyKey, idempotencyKeyOf, IDEMPOTENCY_KEY_LENGTH_MESSAGE } from '../../functions/kernel/http/request-declaration';

class FakeStore implements IdempotencyStore {
  readonly finished: { scope: string; response: unknown }[] = [];
  constructor(
    private readonly answer: IdempotencyBegin,
    private readonly finishFails = false,
  ) {}
  readonly begun: { scope: string; fingerprint: string; inFlightMs?: number }[] = [];
  async begin(scope: string, fingerprint: string, _nowMs: number, inFlightMs?: number): Promise<IdempotencyBegin> {
    this.begun.push({ scope, fingerprint, ...(inFlightMs !== undefined ? { inFlightMs } : {}) });
    return this.answer;
  }
  async finish(scope: string, response: { readonly status: number; readonly body: unknown } | undefined): Promise<void> {
    if (this.finishFails) throw new Error('table unavailable');
    this.finished.push({ scope, response });
  }
}

const logged: unknown[] = [];
const logger = new Logger({ logLevel: 'SILENT' });
logger.error = (...args: unknown[]) => void logged.push(args);

describe('claimIdempotencyKey', () => {
  it('hands a new key to the caller, then stores its answer under the same scope', async () => {
    const store = new FakeStore({ state: 'new' });
    const claim = await claimIdempotencyKey({ idempotency: store, logger }, { scope: 's1', request: { b: 1, a: 2 }, inFlightMs: 5000 });
    expect(claim.state).toBe('claimed');
    expect(store.begun).toEqual([{ scope: 's1', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), inFlightMs: 5000 }]);
    if (claim.state === 'claimed') await claim.remember(201, { id: 'x' });
    expect(store.finished).toEqual([{ scope: 's1', response: { status: 201, body: { id: 'x' } } }]);
  });

  it('fingerprints the request, not the order of its keys', async () => {
    const a = new FakeStore({ state: 'new' });
    const b = new FakeStore({ state: 'new' });
    await claimIdempotencyKey({ idempotency: a, logger }, { scope: 's', request: { b: 1, a: 2 } });
    await claimIdempotencyKey({ idempotency: b, logger }, { scope: 's', request: { a: 2, b: 1 } });
    expect(a.begun[0]!.fingerprint).toBe(b.begun[0]!.fingerprint);
  });

  it('forgets the key of work that failed, so a retry runs afresh', async () => {
    const store = new FakeStore({ state: 'new' });
    const claim = await claimIdempotencyKey({ idempotency: store, logger }, { scope: 's2', request: {} });
    if (claim.state === 'claimed') await claim.forget();
    expect(store.finished).toEqual([{ scope: 's2', response: undefined }]);
  });

  it('passes replays, conflicts and work in flight through unchanged', async () => {
    for (const answer of [{ state: 'replay', status: 200, body: { ok: true } }, { state: 'conflict' }, { state: 'in_flight' }] as const) {
      const claim = await claimIdempotencyKey({ idempotency: new FakeStore(answer), logger }, { scope: 's', request: {} });
      expect(claim).toEqual(answer);
    }
  });

  it('still gives the answer when the store cannot keep it: the failure is logged, and forgetting never throws', async () => {
    const store = new FakeStore({ state: 'new' }, true);
    const claim = await claimIdempotencyKey({ idempotency: store, logger }, { scope: 's3', request: {} });
    if (claim.state !== 'claimed') throw new Error('expected a claim');
    await expect(claim.remember(200, {})).resolves.toBeUndefined();
    expect(logged).toHaveLength(1);
    await expect(claim.forget()).resolves.toBeUndefined();
  });
});

describe('idempotencyKeyOf', () => {
  const refuse = (message: string) => new Error(message);

  it('reads the key, or none', () => {
    expect(idempotencyKeyOf('k-1', refuse)).toBe('k-1');
    expect(idempotencyKeyOf(undefined, refuse)).toBeUndefined();
    expect(idempotencyKeyOf('x'.repeat(255), refuse)).toHaveLength(255);
  });

  it('refuses an empty key and one over 255 characters with the one message', () => {
    expect(() => idempotencyKeyOf('', refuse)).toThrow(IDEMPOTENCY_KEY_LENGTH_MESSAGE);
    expect(() => idempotencyKeyOf('x'.repeat(256), refuse)).toThrow('Idempotency-Key must be 1 to 255 characters');
  });
});
