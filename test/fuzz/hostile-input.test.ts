/**
 * Generated hostile input against the whole local platform: a fixed-seed, bounded run of the fuzz loop
 * (test/fuzz/fuzz-run.ts) over every operation of the OpenAPI documents (public, admin, console) and every class of hostile
 * input, judged by the router contract (test/fuzz/oracle.ts). A failure names its seed and request
 * number; `npm run fuzz -- --seed <seed> --replay <n>` sends that request again, and `npm run fuzz --
 * --seconds N` runs longer with other seeds.
 */
import { describe, expect, it } from 'vitest';
import { formatFailure, groupedReport } from './fuzz-report';
import { runFuzz, type RunResult } from './fuzz-run';
import { loadModel } from './openapi-model';

const SEED = 42;
const REQUESTS = 1500;

describe('hostile input', () => {
  let result: RunResult;
  /** Answers of the signed-in console routes by status class: their base requests carry an owner's session. */
  const consoleAnswers = new Map<string, number>();
  const signedIn = new Set(
    loadModel()
      .operations.filter((o) => o.security === 'consoleSession')
      .map((o) => o.id),
  );

  it(`answers ${REQUESTS} generated hostile requests (seed ${SEED}) as the document and the router contract say, and keeps answering`, async () => {
    result = await runFuzz({
      seed: SEED,
      maxRequests: REQUESTS,
      timeoutMs: 10_000,
      onAnswer: (_n, req, _source, answer) => {
        if (signedIn.has(req.op)) consoleAnswers.set(answer.slice(0, 1), (consoleAnswers.get(answer.slice(0, 1)) ?? 0) + 1);
      },
    });
    const shown = result.failures.slice(0, 5).map(formatFailure).join('\n\n');
    expect(result.failures.length, `${result.failures.length} failures by class:\n${groupedReport(result.failures)}\n\nthe first ones in full:\n${shown}`).toBe(
      0,
    );
  }, 120_000);

  it('reached every operation, and got past authentication into the handlers', () => {
    // A suite whose every request stopped at a 401 would prove nothing about validation.
    expect(result.requests).toBe(REQUESTS);
    expect([...result.operations].sort()).toEqual(
      loadModel()
        .operations.map((o) => o.id)
        .sort(),
    );
    const count = (pred: (s: number) => boolean) => [...result.statuses].filter(([s]) => pred(s)).reduce((n, [, c]) => n + c, 0);
    expect(
      count((s) => s >= 200 && s < 300),
      'successful answers',
    ).toBeGreaterThan(REQUESTS / 20);
    expect(
      count((s) => s === 400 || s === 404 || s === 422),
      'validation answers',
    ).toBeGreaterThan(REQUESTS / 10);
    const consoleTotal = [...consoleAnswers.values()].reduce((a, b) => a + b, 0);
    expect(consoleAnswers.get('2') ?? 0, `successful console answers of ${consoleTotal}`).toBeGreaterThan(consoleTotal / 10);
  });
});
