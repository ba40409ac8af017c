/**
 * One life of the platform under fuzz: its process, its tenants, and the arbitrary bound to them. It
 * samples the requests of a batch (request n is the (n mod BATCH)-th sample of batch n div BATCH,
 * drawn with a seed derived from the run's seed, so `seed` plus `n` names a request for good), sends
 * them, tells whether the platform still answers, and starts a new life when it does not.
 */
import fc from 'fast-check';
import type { FuzzContext } from './base-request';
import { createTenants } from './credentials';
import { hostileArb } from './generators';
import { toWire, type HostileRequest } from './hostile-request';
import type { ApiModel } from './openapi-model';
import { startFuzzPlatform, type FuzzPlatform } from './platform-process';
import { exchange, headerValue, isAnswer, type NoAnswer, type RawAnswer } from './raw-http';

export const BATCH = 25;
const TENANTS = 6;
/** Loopback source addresses rotated per request, so per-IP limits see 200 clients. */
const SOURCES = 200;

export function batchSeed(seed: number, batch: number): number {
  return (Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) + batch) | 0;
}

export const sourceOf = (n: number) => `127.0.0.${2 + (n % SOURCES)}`;

export function summarize(answer: RawAnswer | NoAnswer): string {
  if (!isAnswer(answer)) return `no answer (${answer.error})`;
  const type = headerValue(answer, 'content-type') ?? '(no Content-Type)';
  return `${answer.status} ${type} ${JSON.stringify(answer.body.toString('utf8').slice(0, 300))}`;
}

/** Where the last uncaught exception starts in a stderr tail (Node prints `file:line` first), so the report shows the crash, not the logs before it. */
export function crashExcerpt(tail: string): string {
  const starts = [...tail.matchAll(/^(?:\/\S+:\d+|\w*Error\b.*)$/gm)];
  const at = starts.length ? (starts.findLast((m) => /^\//.test(m[0]))?.index ?? starts.at(-1)!.index) : Math.max(0, tail.length - 1500);
  return tail.slice(at, at + 1500);
}

export class PlatformSession {
  private constructor(
    private readonly model: ApiModel,
    private platform: FuzzPlatform,
    private arb: fc.Arbitrary<HostileRequest>,
  ) {}

  static async start(model: ApiModel): Promise<PlatformSession> {
    const { platform, arb } = await PlatformSession.boot(model);
    return new PlatformSession(model, platform, arb);
  }

  private static async boot(model: ApiModel): Promise<{ platform: FuzzPlatform; arb: fc.Arbitrary<HostileRequest> }> {
    const platform = await startFuzzPlatform();
    try {
      const tenants = await createTenants(platform, TENANTS);
      const ctx: FuzzContext = { model, tenants, hostHeader: `${platform.host}:${platform.port}`, adminToken: platform.adminToken };
      return { platform, arb: hostileArb(ctx) };
    } catch (err) {
      await platform.stop();
      throw err;
    }
  }

  async restart(): Promise<void> {
    await this.platform.stop();
    ({ platform: this.platform, arb: this.arb } = await PlatformSession.boot(this.model));
  }

  /** The requests of a batch, numbered; the same seed and batch give the same mutations in every life. */
  sample(seed: number, batch: number): { req: HostileRequest; n: number }[] {
    return fc.sample(this.arb, { seed: batchSeed(seed, batch), numRuns: BATCH }).map((req, i) => ({ req, n: batch * BATCH + i }));
  }

  send(req: HostileRequest, source: string, timeoutMs: number): Promise<RawAnswer | NoAnswer> {
    const { head, body } = toWire(req);
    const p = this.platform;
    return exchange({
      host: p.host,
      port: p.port,
      localAddress: source,
      head,
      body,
      halfClose: req.abandon ?? false,
      isHead: req.method === 'HEAD',
      timeoutMs: req.abandon ? 3000 : timeoutMs,
    });
  }

  /** Undefined while the platform answers a request for a path no route names (the cheapest proof); else what went wrong. */
  async down(): Promise<string | undefined> {
    const p = this.platform;
    const head = Buffer.from(`GET /fuzz-liveness-probe HTTP/1.1\r\nHost: ${p.host}:${p.port}\r\nConnection: close\r\n\r\n`);
    const answer = await exchange({ host: p.host, port: p.port, head, timeoutMs: 5000 });
    if (isAnswer(answer) && answer.status === 404 && !p.exit()) return undefined;
    // A process that just crashed may not have been reaped yet: give its exit a moment to show.
    for (let waited = 0; !p.exit() && waited < 2000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    const exit = p.exit();
    return exit
      ? `the platform process ${exit}; its stderr ends with: ${crashExcerpt(p.stderrTail())}`
      : `the liveness probe (GET /fuzz-liveness-probe, expecting 404) got ${summarize(answer)}`;
  }

  stop(): Promise<void> {
    return this.platform.stop();
  }
}
