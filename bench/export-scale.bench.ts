/**
 * `npm run bench -- export-scale [--sessions 20000] [--messages 10] [--changed 1000]`: the reference
 * sync client (functions/cli/export-sync) into DuckDB against an org seeded on the local platform, a
 * first sync and then an incremental pass after `--changed` sessions changed, each two ways in the same
 * run: a bulk snapshot export then the rows (the client's default first load), transcripts with the
 * session rows (`include=messages`, the default incremental pass) and the spec's per-session loop (one
 * `GET /sessions/{id}/messages` per new or changed session, the baseline).
 *
 * For each it prints the requests made, requests per 1,000 sessions, the wall time, the time the
 * 120-a-minute limit of one key alone would impose (requests / 120 minutes), and the rows per second
 * written into DuckDB; then the projection for an org of 1,000,000 sessions. The bench rotates org keys
 * (one per 100 requests) so that the limit never stalls the measurement itself.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Logger } from '@aws-lambda-powertools/logger';
import { appendToSession } from '../functions/chat/app/record-session-activity';
import { DuckDbStore } from '../functions/cli/export-sync/duckdb-store';
import { fetchTransport, type HttpTransport } from '../functions/cli/export-sync/export-api';
import type { CopyPass, LocalStore, SessionPut } from '../functions/cli/export-sync/local-store';
import { syncOnce, type SyncSummary } from '../functions/cli/export-sync/sync-client';
import { messageItem, sessionItem } from '../functions/conversations/adapters/dynamo-session-items';
import type { Message, Session } from '../functions/conversations/domain/session';
import { startPlatform } from '../functions/local/local-platform';
import { table } from './stats';
import { seed, tableOf } from './seed';

/** The published limit of one org key (requests a minute, every export route together). */
const LIMIT_PER_MINUTE = 120;
/** Requests per org key in the bench: under the limit, so it never waits. */
const REQUESTS_PER_KEY = 100;
const SEED_CONCURRENCY = 8;
const PROJECTED_SESSIONS = 1_000_000;

interface Options {
  readonly sessions: number;
  readonly messages: number;
  readonly changed: number;
}

function options(): Options {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { sessions: { type: 'string' }, messages: { type: 'string' }, changed: { type: 'string' } },
    strict: true,
  });
  const int = (name: string, raw: string | undefined, fallback: number) => {
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, not ${raw}`);
    return n;
  };
  const sessions = int('sessions', values.sessions, 20_000);
  return { sessions, messages: int('messages', values.messages, 10), changed: Math.min(sessions, int('changed', values.changed, 1_000)) };
}

/** The org's sessions and messages as their items: realistic sizes (a sentence or two a message). */
function orgItems(orgId: string, appId: string, o: Options, newestUs: number): { items: Record<string, unknown>[]; ids: string[] } {
  const items: Record<string, unknown>[] = [];
  const ids: string[] = [];
  for (let i = 0; i < o.sessions; i++) {
    const lastUs = newestUs - i * 1_003;
    const session: Session = {
      id: randomUUID(),
      orgId,
      appId,
      consumerId: null,
      consumerEmail: null,
      title: `Order question ${i}`,
      source: 'web',
      externalId: null,
      queryParams: [],
      startedAtUs: lastUs - o.messages * 1_000_000,
      lastMessageAtUs: lastUs,
      touchedAtUs: lastUs,
    };
    ids.push(session.id);
    items.push(sessionItem(session));
    for (let m = 0; m < o.messages; m++) {
      const message: Message = {
        id: randomUUID(),
        sessionId: session.id,
        role: m % 2 ? 'assistant' : 'user',
        content:
          m % 2
            ? `Your order ${i}-${m} shipped on Tuesday and should arrive within three working days.`
            : `Where is my order ${i}-${m}? I placed it last week.`,
        createdAtUs: session.startedAtUs + (m + 1) * 1_000_000,
      };
      items.push(messageItem(message));
    }
  }
  return { items, ids };
}

/** A store that times the calls of its passes (writes, the reads between them, commits) and counts the session and message rows they write. */
function timedStore(inner: DuckDbStore): LocalStore & { ms: number; rows: number } {
  const store = {
    ms: 0,
    rows: 0,
    load: () => inner.load(),
    async begin(): Promise<CopyPass> {
      const pass = await inner.begin();
      return new Proxy(pass, {
        get(target, key) {
          const member = Reflect.get(target, key) as unknown;
          if (typeof member !== 'function') return member;
          return async (...args: unknown[]) => {
            if (key === 'putSessions') for (const p of args[0] as SessionPut[]) store.rows += 1 + (p.messages?.length ?? 0);
            const t0 = performance.now();
            try {
              return await (member as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            } finally {
              store.ms += performance.now() - t0;
            }
          };
        },
      });
    },
  };
  return store;
}

interface Pass {
  readonly pass: string;
  readonly path: string;
  readonly sessions: number;
  readonly summary: SyncSummary;
  readonly wallMs: number;
  readonly store: { ms: number; rows: number };
}

/**
 * The API requests of a snapshot first sync of PROJECTED_SESSIONS: the same POST and incremental passes,
 * and the polls of a job that runs as much longer as it has more rows (at this run's rate): one after
 * 1 s, then 1.5 times longer each, at most one every 10 s.
 */
function snapshotRequests(x: Pass, measuredSessions: number): number {
  const polls = (seconds: number) => {
    let n = 0;
    for (let t = 0, wait = 1; t < seconds; n++, wait = Math.min(10, wait * 1.5)) t += wait;
    return Math.max(1, n);
  };
  const seconds = x.wallMs / 1000;
  return x.summary.requests.total - polls(seconds) + polls(seconds * (PROJECTED_SESSIONS / measuredSessions));
}

export async function benchExportScale(): Promise<void> {
  const o = options();
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-export-'));
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
  try {
    const org = await admin('/orgs', { name: 'bench-export-scale', plan: 'paid' });
    const app = await admin(`/orgs/${org.id}/apps`, { name: 'Bench app' });
    const { items, ids } = orgItems(org.id, app.id, o, (Date.now() - 60_000) * 1000);
    const t0 = performance.now();
    await seed(tableOf(p), items, SEED_CONCURRENCY);
    const seedS = (performance.now() - t0) / 1000;
    console.log(
      `${o.sessions} sessions of ${o.messages} messages (${items.length} items) seeded in ${seedS.toFixed(1)} s; then ${o.changed} of them change (one message each)`,
    );

    /** Org keys in turn, a new one every REQUESTS_PER_KEY requests. */
    let transport: HttpTransport | undefined;
    let uses = REQUESTS_PER_KEY;
    const current = async (): Promise<HttpTransport> => {
      if (uses >= REQUESTS_PER_KEY) {
        transport = fetchTransport(
          p.baseUrl,
          (await admin(`/orgs/${org.id}/keys`, { scopes: ['apps:read', 'transcripts:read', 'usage:read', 'tombstones:read'] })).key,
        );
        uses = 0;
      }
      uses++;
      return transport!;
    };
    const rotating: HttpTransport = {
      get: async (pathAndQuery) => (await current()).get(pathAndQuery),
      post: async (pathAndQuery, body) => (await current()).post!(pathAndQuery, body),
      // A presigned link: no key, no rate limit.
      download: (url) => fetchTransport(p.baseUrl, '').download!(url),
    };
    const copies = {
      snapshot: await DuckDbStore.open(join(dataDir, 'snapshot.duckdb')),
      inline: await DuckDbStore.open(join(dataDir, 'inline.duckdb')),
      'per-session': await DuckDbStore.open(join(dataDir, 'per-session.duckdb')),
    };
    const passes: Pass[] = [];
    const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    const run = async (pass: string, sessions: number) => {
      for (const path of ['snapshot', 'inline', 'per-session'] as const) {
        const store = timedStore(copies[path]);
        const started = performance.now();
        const summary = await syncOnce({
          transport: rotating,
          store,
          transcripts: path === 'per-session' ? 'per-session' : 'inline',
          firstLoad: path === 'snapshot' ? 'snapshot' : 'pages',
          // The client's own poll schedule (1 s, backing off to 10 s): polls are part of the requests.
          pollMs: 1000,
          sleep: path === 'snapshot' ? realSleep : async () => undefined,
        });
        passes.push({ pass, path, sessions, summary, wallMs: performance.now() - started, store });
      }
    };
    await run('first sync', o.sessions);
    for (const id of ids.slice(0, o.changed)) {
      await appendToSession(p.deps, { sessionId: id, messages: [{ role: 'user', content: 'One more question about this order.' }] });
    }
    await run(`after ${o.changed} changed`, o.changed);

    const label = (path: string) =>
      ({ snapshot: 'snapshot export, then with the rows', inline: 'with the rows (include=messages)', 'per-session': 'per session (baseline)' })[path]!;
    table(
      passes.map((x) => {
        const requests = x.summary.requests.total;
        return {
          pass: x.pass,
          transcripts: label(x.path),
          'API requests': requests,
          downloads: x.summary.requests.downloads,
          'req / 1,000 sessions': Math.round((requests / x.sessions) * 1000 * 10) / 10,
          'wall s': (x.wallMs / 1000).toFixed(1),
          '120/min limit alone, min': (requests / LIMIT_PER_MINUTE).toFixed(1),
          'DuckDB rows/s': Math.round(x.store.rows / (x.store.ms / 1000)),
        };
      }),
    );
    const find = (pass: string, path: string) => passes.find((x) => x.pass === pass && x.path === path)!;
    const changedPass = `after ${o.changed} changed`;
    const ratio = (pass: string, path: string) => (find(pass, path).summary.requests.total / find(pass, 'per-session').summary.requests.total).toFixed(3);
    console.log(
      `\nAPI requests ÷ the per-session baseline: first sync ×${ratio('first sync', 'snapshot')} with a snapshot export, ×${ratio('first sync', 'inline')} with the rows; incremental ×${ratio(changedPass, 'inline')}`,
    );

    console.log(
      `\nProjection for ${PROJECTED_SESSIONS.toLocaleString('en')} sessions (${(PROJECTED_SESSIONS * o.messages).toLocaleString('en')} messages), from the measured requests:`,
    );
    const perThousand = (x: Pass) => x.summary.requests.total / (x.sessions / 1000);
    const minutes = (requests: number) => {
      const m = requests / LIMIT_PER_MINUTE;
      return m >= 120 ? `${(m / 60).toFixed(1)} h` : `${m.toFixed(1)} min`;
    };
    table([
      ...(['snapshot', 'inline', 'per-session'] as const).map((path) => {
        const x = find('first sync', path);
        const requests = path === 'snapshot' ? snapshotRequests(x, o.sessions) : perThousand(x) * (PROJECTED_SESSIONS / 1000);
        return {
          pass: 'first sync of the whole org',
          transcripts: label(path),
          'API requests': Math.round(requests),
          '120/min limit alone': minutes(requests),
          'changed sessions an hour, one key': '',
        };
      }),
      ...(['inline', 'per-session'] as const).map((path) => {
        const x = find(changedPass, path);
        return {
          pass: 'per 1,000 changed sessions',
          transcripts: label(path),
          'API requests': Math.round(perThousand(x)),
          '120/min limit alone': minutes(perThousand(x)),
          'changed sessions an hour, one key': Math.round((LIMIT_PER_MINUTE * 60 * 1000) / perThousand(x)),
        };
      }),
    ]);
    const incremental = find(changedPass, 'inline');
    const firstSnapshot = snapshotRequests(find('first sync', 'snapshot'), o.sessions);
    const minDuck = Math.min(...passes.filter((x) => x.path !== 'per-session').map((x) => Math.round(x.store.rows / (x.store.ms / 1000))));
    console.log(
      [
        '',
        'Targets:',
        `- at most 15 requests per 1,000 changed sessions: ${perThousand(incremental).toFixed(1)} (${perThousand(incremental) <= 15 ? 'met' : 'NOT met'})`,
        `- a first sync of 1,000,000 sessions within 30 minutes of rate-limited time: ${(firstSnapshot / LIMIT_PER_MINUTE).toFixed(1)} min with a snapshot export (${firstSnapshot / LIMIT_PER_MINUTE <= 30 ? 'met' : 'NOT met'}; the job's own duration scales with the org, projected from this run)`,
        `- at least 20,000 rows a second into DuckDB: ${minDuck} (${minDuck >= 20_000 ? 'met' : 'NOT met'})`,
      ].join('\n'),
    );
    for (const c of Object.values(copies)) await c.close();
  } finally {
    await p.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
