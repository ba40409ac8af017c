/**
 * GET /api/v1/org/sessions?limit=100 end to end on the local platform, for an org with 1,000 sessions
 * and an org with 50,000 sessions in the same table: page latency over HTTP, DynamoDB read capacity per
 * page (ReturnConsumedCapacity on every Query, through middleware on the platform's document client),
 * DynamoDB calls per request, and the bare Query of the same page without the platform around it.
 * The page cost must not grow with the org's size (one Query per page, ADR 0009).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { padMicros } from '../functions/kernel/adapters/dynamo-batch';
import { sessionItem } from '../functions/conversations/adapters/dynamo-session-items';
import type { Session } from '../functions/conversations/domain/session';
import { startPlatform } from '../functions/local/local-platform';
import { percentile, table } from './stats';
import { seed, tableOf, type PlatformTable } from './seed';

const PAGE = 100;
/** Requests per org key: under the 120/min limit of one key. */
const REQUESTS_PER_KEY = 100;
/** BatchWriteItem requests in flight while seeding. */
const SEED_CONCURRENCY = Number(process.env.BENCH_SEED_CONCURRENCY ?? 8);

interface OrgPlan {
  readonly sessions: number;
  /** Pages read in each round, following next_cursor and starting over after the last page. */
  readonly pagesPerRound: number;
}

/** 20 rounds: the small org's 10 pages 20 times (200 requests), the big org's 500 pages once. */
const ROUNDS = 20;
const ORGS: readonly OrgPlan[] = [
  { sessions: 1_000, pagesPerRound: 10 },
  { sessions: 50_000, pagesPerRound: 25 },
];

/** What the middleware saw since the last `reset`. */
interface Meter {
  calls: Map<string, number>;
  rcu: number;
  reset(): void;
}

/** Sets ReturnConsumedCapacity TOTAL on every Query; counts commands and sums the capacity they report. */
function meter(t: PlatformTable): Meter {
  const m: Meter = {
    calls: new Map(),
    rcu: 0,
    reset() {
      m.calls = new Map();
      m.rcu = 0;
    },
  };
  t.db.middlewareStack.add(
    (next, context) => async (args) => {
      const name = (context.commandName ?? 'unknown').replace(/Command$/, '');
      m.calls.set(name, (m.calls.get(name) ?? 0) + 1);
      const input = args.input as Record<string, unknown>;
      const result = await next(name === 'Query' ? { ...args, input: { ...input, ReturnConsumedCapacity: 'TOTAL' } } : args);
      const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity;
      if (name === 'Query') m.rcu += consumed?.CapacityUnits ?? NaN;
      return result;
    },
    { step: 'initialize', name: 'bench-org-sessions-meter' },
  );
  return m;
}

function signature(calls: Map<string, number>): string {
  return [...calls.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
}

/**
 * The index (rank from the newest) whose last_activity value session i takes: mostly distinct, with
 * runs of 4 equal values inside each hundred and across every page boundary (ranks 98..101).
 */
function activityRank(i: number): number {
  const r = i % 100;
  if (r >= 98) return i - (r - 98);
  if (r <= 1 && i >= 100) return i - r - 2;
  if (r >= 20 && r < 40) return i - (i % 4);
  return i;
}

/** `count` sessions of one app, the newest last active at `newestUs` (the console bench seeds them too). */
export function sessionsFor(orgId: string, appId: string, count: number, newestUs: number): Session[] {
  const out: Session[] = [];
  for (let i = 0; i < count; i++) {
    const activityUs = newestUs - activityRank(i) * 997_003;
    const n = String(i).padStart(6, '0');
    const consumer = i % 4 !== 0;
    const empty = i % 10 === 0;
    out.push({
      id: randomUUID(),
      orgId,
      appId,
      consumerId: consumer ? randomUUID() : null,
      consumerEmail: consumer ? `user${n}@example.com` : null,
      title: `Bench session ${n}`,
      source: 'web',
      externalId: i % 3 === 0 ? `ext-${n}` : null,
      queryParams: [{ name: 'utm_source', value: 'bench' }],
      startedAtUs: activityUs - 300_000_000,
      lastMessageAtUs: empty ? null : activityUs,
      touchedAtUs: activityUs,
    });
  }
  return out;
}

interface PageResult {
  readonly ids: string[];
  readonly nextCursor: string;
  readonly hasMore: boolean;
}

export async function benchOrgSessions(): Promise<void> {
  const started = performance.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-'));
  const p = await startPlatform({ dataDir, persist: false, timers: false, seed: false, visibilityDelayMs: 0, logger: new Logger({ logLevel: 'SILENT' }) });
  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${p.baseUrl}/admin/v1${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${p.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201 && res.status !== 200) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { id: string; key: string } }).data;
  };
  const t = tableOf(p);
  const m = meter(t);
  const rows: Record<string, string | number>[] = [];
  const callRows: Record<string, string | number>[] = [];
  const seedNotes: string[] = [];
  try {
    // Seed both orgs into the one table, the big one first (its items are older in the table's history).
    const newestUs = (Date.now() - 60_000) * 1000;
    const orgs: { plan: OrgPlan; orgId: string; expected: string[] }[] = [];
    for (const plan of [...ORGS].reverse()) {
      const org = await admin('/orgs', { name: `bench-sessions-${plan.sessions}`, plan: 'paid' });
      const app = await admin(`/orgs/${org.id}/apps`, { name: 'Bench app' });
      const sessions = sessionsFor(org.id, app.id, plan.sessions, newestUs);
      const items = sessions.map(sessionItem);
      const t0 = performance.now();
      await seed(t, items, SEED_CONCURRENCY);
      const seconds = (performance.now() - t0) / 1000;
      seedNotes.push(
        `${plan.sessions} sessions seeded in ${seconds.toFixed(1)} s (${Math.round(plan.sessions / seconds)} items/s, ${SEED_CONCURRENCY} BatchWriteItem in flight)`,
      );
      // The export order: (last_activity, id) descending, i.e. gsi1sk descending.
      const expected = items.map((i) => i.gsi1sk as string).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
      orgs.unshift({ plan, orgId: org.id, expected });
    }

    const keys = new Map<string, { key: string; uses: number }>();
    /** One page over HTTP with a fresh org key every REQUESTS_PER_KEY requests; the meter counts this request's calls only. */
    const getPage = async (orgId: string, cursor: string | undefined): Promise<PageResult & { ms: number }> => {
      let k = keys.get(orgId);
      if (!k || k.uses >= REQUESTS_PER_KEY) {
        k = { key: (await admin(`/orgs/${orgId}/keys`, { scopes: ['transcripts:read'] })).key, uses: 0 };
        keys.set(orgId, k);
      }
      k.uses++;
      const url = `${p.baseUrl}/api/v1/org/sessions?limit=${PAGE}${cursor !== undefined ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      m.reset();
      const t0 = performance.now();
      const res = await fetch(url, { headers: { Authorization: `Bearer ${k.key}` } });
      const body = (await res.json()) as { data: { id: string }[]; pagination: { next_cursor: string; has_more: boolean } };
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`unexpected ${res.status}: ${JSON.stringify(body)}`);
      return { ms, ids: body.data.map((s) => s.id), nextCursor: body.pagination.next_cursor, hasMore: body.pagination.has_more };
    };
    /** The platform's Query for page `page`, sent directly: BETWEEN the floor and the previous page's last key. */
    const bareQuery = async (orgId: string, expected: string[], page: number) => {
      const hi = page === 0 ? `${padMicros(Date.now() * 1000)}#~` : expected[page * PAGE - 1]!;
      m.reset();
      const t0 = performance.now();
      const res = await t.db.send(
        new QueryCommand({
          TableName: t.table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :lo AND :hi',
          ExpressionAttributeValues: { ':pk': `ORGSESS#${orgId}`, ':lo': `${padMicros(0)}#`, ':hi': hi },
          ScanIndexForward: false,
          Limit: PAGE + 2,
        }),
      );
      const ms = performance.now() - t0;
      const got = (res.Items ?? []).map((i) => i.gsi1sk as string).filter((sk) => sk !== hi);
      const want = expected.slice(page * PAGE, page * PAGE + PAGE + 1);
      if (got.slice(0, want.length).join() !== want.join()) throw new Error(`bare query of page ${page} disagrees with the seeded order`);
      return { ms, rcu: m.rcu };
    };
    const idOf = (sk: string) => sk.slice(sk.indexOf('#') + 1);

    // Warm-up (JIT, connections, the cursor key's cold load), kept out of the numbers: one pass over the small org.
    {
      const small = orgs.find((o) => o.plan.sessions === Math.min(...ORGS.map((x) => x.sessions)))!;
      let cursor: string | undefined;
      let first = true;
      do {
        const page = await getPage(small.orgId, cursor);
        if (first) callRows.push({ org: 'warm-up, first request (cold start)', requests: 1, 'DynamoDB calls': signature(m.calls) });
        first = false;
        await bareQuery(small.orgId, small.expected, 0);
        cursor = page.hasMore ? page.nextCursor : undefined;
      } while (cursor !== undefined);
    }

    // Rounds alternate between the orgs, so drift (GC, JIT, the table's growth in memory) hits both alike.
    const state = orgs.map((o) => ({
      ...o,
      totalPages: Math.ceil(o.plan.sessions / PAGE),
      page: 0,
      cursor: undefined as string | undefined,
      latency: [] as number[],
      bare: [] as number[],
      rcu: [] as number[],
      signatures: new Map<string, number>(),
    }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const o of state) {
        for (let i = 0; i < o.plan.pagesPerRound; i++) {
          const n = o.page;
          const page = await getPage(o.orgId, o.cursor);
          o.latency.push(page.ms);
          const rcu = m.rcu;
          o.rcu.push(rcu);
          const sig = signature(m.calls);
          o.signatures.set(sig, (o.signatures.get(sig) ?? 0) + 1);
          const want = o.expected.slice(n * PAGE, (n + 1) * PAGE).map(idOf);
          if (page.ids.join() !== want.join()) throw new Error(`org of ${o.plan.sessions}: page ${n} is not the expected slice of the export order`);
          if (page.hasMore !== n + 1 < o.totalPages) throw new Error(`org of ${o.plan.sessions}: page ${n} has_more=${page.hasMore}`);
          // The bare Query of the same page, right after it, on the same client.
          const bare = await bareQuery(o.orgId, o.expected, n);
          if (bare.rcu !== rcu) throw new Error(`org of ${o.plan.sessions}: page ${n} cost ${rcu} RCU through the platform, ${bare.rcu} bare`);
          o.bare.push(bare.ms);
          // After the last page, start the chain over from page 1.
          o.page = page.hasMore ? n + 1 : 0;
          o.cursor = page.hasMore ? page.nextCursor : undefined;
        }
      }
    }

    for (const o of state) {
      const p50 = percentile(o.latency, 50);
      const bareP50 = percentile(o.bare, 50);
      const mode = [...o.signatures.entries()].sort((a, b) => b[1] - a[1])[0]![0];
      const distinct = Math.min(o.latency.length, o.totalPages);
      rows.push({
        sessions: o.plan.sessions,
        pages: `${o.latency.length} (${distinct} of ${o.totalPages} distinct)`,
        'p50 ms': p50.toFixed(2),
        'p99 ms': percentile(o.latency, 99).toFixed(2),
        'RCU/page mean': (o.rcu.reduce((a, b) => a + b, 0) / o.rcu.length).toFixed(2),
        'RCU/page max': Math.max(...o.rcu).toFixed(1),
        'bare p50 ms': bareP50.toFixed(2),
        'overhead ×': (p50 / bareP50).toFixed(1),
        'calls/request': mode,
      });
      for (const [sig, count] of o.signatures) callRows.push({ org: `${o.plan.sessions} sessions`, requests: count, 'DynamoDB calls': sig });
    }
  } finally {
    await p.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  table(rows);
  console.log('');
  table(callRows);
  console.log('');
  for (const note of seedNotes) console.log(`- ${note}`);
  console.log(
    `- suite total ${((performance.now() - started) / 1000).toFixed(1)} s; bare = the same gsi1 Query (Limit ${PAGE + 2}, descending, BETWEEN) sent directly on the platform's document client`,
  );
}
