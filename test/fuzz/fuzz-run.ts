/**
 * The fuzz loop: samples batches of hostile requests from the seeded arbitrary, sends each over its own
 * socket from a rotating loopback address, judges each answer, and after each batch checks that the
 * platform still answers and its process lives. When it died, it starts a new one and sends the
 * batch's unanswered requests again one at a time, to name the one that kills it; the others' missing
 * answers are then collateral, not findings of their own.
 */
import type { HostileRequest } from './hostile-request';
import { loadModel, type ApiModel } from './openapi-model';
import { judge, type Rule } from './oracle';
import { BATCH, PlatformSession, sourceOf, summarize } from './platform-session';
import { isAnswer } from './raw-http';

export { BATCH };
/** Deaths in this many batches in a row: the platform cannot stay up, and the run stops. */
const MAX_DEATHS_IN_A_ROW = 3;

export interface FoundFailure {
  readonly n: number;
  readonly seed: number;
  readonly rule: Rule | 'liveness';
  readonly message: string;
  readonly req?: HostileRequest;
  readonly source?: string;
  readonly answer?: string;
  /** No answer because another request of the batch brought the platform down. */
  readonly collateral?: boolean;
}

export interface RunOptions {
  readonly seed: number;
  readonly maxRequests?: number;
  readonly seconds?: number;
  /** Send only request n of the run (a replay). */
  readonly only?: number;
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly onFailure?: (f: FoundFailure) => void;
  /** Every request and its answer (a replay prints them). */
  readonly onAnswer?: (n: number, req: HostileRequest, source: string, answer: string) => void;
  readonly onBatch?: (progress: { requests: number; failures: number; seconds: number }) => void;
  readonly shouldStop?: () => boolean;
}

export interface RunResult {
  readonly requests: number;
  readonly failures: readonly FoundFailure[];
  readonly seconds: number;
  /** How often each status was answered, and which operations were fuzzed. */
  readonly statuses: ReadonlyMap<number, number>;
  readonly operations: ReadonlySet<string>;
}

async function pool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/**
 * Sends each suspect of a batch alone to a fresh platform (regenerated with its credentials) and
 * returns the first after which it is down again, leaving a fresh platform behind.
 */
async function triage(session: PlatformSession, seed: number, batch: number, suspects: readonly number[], timeoutMs: number) {
  const fresh = session.sample(seed, batch);
  for (const n of suspects) {
    const { req } = fresh.find((s) => s.n === n)!;
    const answer = await session.send(req, sourceOf(n), timeoutMs);
    if (await session.down()) {
      await session.restart();
      return { n, req, source: sourceOf(n), answer: summarize(answer) };
    }
  }
  return undefined;
}

export async function runFuzz(opts: RunOptions, model: ApiModel = loadModel()): Promise<RunResult> {
  const started = Date.now();
  const elapsed = () => (Date.now() - started) / 1000;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const failures: FoundFailure[] = [];
  const statuses = new Map<number, number>();
  const operations = new Set<string>();
  const fail = (f: FoundFailure) => {
    failures.push(f);
    opts.onFailure?.(f);
  };
  const session = await PlatformSession.start(model);
  let requests = 0;
  let deathsInARow = 0;
  const done = () =>
    (opts.maxRequests !== undefined && requests >= opts.maxRequests) ||
    (opts.seconds !== undefined && elapsed() >= opts.seconds) ||
    (opts.shouldStop?.() ?? false);
  try {
    for (let batch = opts.only !== undefined ? Math.floor(opts.only / BATCH) : 0; !done(); batch++) {
      let sample = session.sample(opts.seed, batch);
      if (opts.only !== undefined) sample = sample.filter((s) => s.n === opts.only);
      if (opts.maxRequests !== undefined) sample = sample.slice(0, opts.maxRequests - requests);
      const unanswered: number[] = [];
      await pool(sample, opts.concurrency ?? 6, async ({ req, n }) => {
        const source = sourceOf(n);
        const answer = await session.send(req, source, timeoutMs);
        requests++;
        operations.add(req.op);
        if (isAnswer(answer)) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        else unanswered.push(n);
        opts.onAnswer?.(n, req, source, summarize(answer));
        const failure = judge(model, req, answer);
        if (failure) fail({ n, seed: opts.seed, ...failure, req, source, answer: summarize(answer) });
      });
      const down = await session.down();
      deathsInARow = down ? deathsInARow + 1 : 0;
      if (down) {
        const range = `requests ${batch * BATCH} to ${batch * BATCH + BATCH - 1}`;
        await session.restart();
        const culprit = await triage(
          session,
          opts.seed,
          batch,
          unanswered.sort((a, b) => a - b),
          timeoutMs,
        );
        const blame = culprit ? `request #${culprit.n} alone brings it down again` : 'no request of the batch brings it down again alone';
        fail({ n: culprit?.n ?? batch * BATCH, seed: opts.seed, rule: 'liveness', message: `down during ${range}: ${blame}; ${down}`, ...(culprit ?? {}) });
        for (const [i, f] of failures.entries())
          if (f.rule === 'answer' && f.n !== culprit?.n && unanswered.includes(f.n)) failures[i] = { ...f, collateral: true };
        if (deathsInARow >= MAX_DEATHS_IN_A_ROW) {
          fail({ n: batch * BATCH, seed: opts.seed, rule: 'liveness', message: `the platform died in ${deathsInARow} batches in a row; the run stops` });
          break;
        }
      }
      opts.onBatch?.({ requests, failures: failures.length, seconds: elapsed() });
      if (opts.only !== undefined) break;
    }
  } finally {
    await session.stop();
  }
  return { requests, failures, seconds: elapsed(), statuses, operations };
}
