/**
 * One measurement of `npm run bench -- export-client-memory`, in a process of its own so that its peak
 * resident memory is its own: the reference sync client's first sync of a synthetic org (sessions of
 * `--messages` messages, generated on the fly by an in-process transport, so no server shares the
 * process) into a store, then one line of JSON with the process's peak RSS and the time it took.
 *
 *   tsx bench/client-memory-child.ts --store json|duckdb|none --path snapshot|pages --sessions N --messages M
 *
 * `--store none` loads nothing and syncs nothing: the bare process (Node, tsx, the client's modules).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { DuckDbStore } from '../functions/cli/export-sync/duckdb-store';
import type { HttpResponse, HttpTransport } from '../functions/cli/export-sync/export-api';
import { JsonDirStore, type LocalStore } from '../functions/cli/export-sync/local-store';
import { syncOnce } from '../functions/cli/export-sync/sync-client';

const { values } = parseArgs({
  options: { store: { type: 'string' }, path: { type: 'string' }, sessions: { type: 'string' }, messages: { type: 'string' } },
  strict: true,
});
const sessions = Number(values.sessions ?? 1000);
const messages = Number(values.messages ?? 10);
const PAGE = 100;
/** Rows per snapshot file, as the export jobs write them. */
const FILE_ROWS = 5000;
const APP = 'app-1';
const BASE_MS = Date.parse('2026-01-01T00:00:00.000Z');

/** Session `i` as `include=messages` lists it: the same every time it is generated. */
function sessionRow(i: number): Record<string, unknown> {
  const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  const last = new Date(BASE_MS + i * 1000).toISOString();
  return {
    id,
    app_id: APP,
    consumer_id: null,
    consumer_email: null,
    title: `Order question ${i}`,
    source: 'web',
    external_id: null,
    query_params: [],
    started_at: last,
    ended_at: last,
    last_activity_at: last,
    last_message_at: last,
    zdr: false,
    messages: Array.from({ length: messages }, (_, m) => ({
      id: `${id}-${m}`,
      role: m % 2 ? 'assistant' : 'user',
      content:
        m % 2 ? `Your order ${i}-${m} shipped on Tuesday and should arrive within three working days.` : `Where is my order ${i}-${m}? I placed it last week.`,
      created_at: last,
    })),
  };
}

const json = (status: number, body: unknown): HttpResponse => ({ status, header: () => null, text: JSON.stringify(body) });
const page = (data: unknown[], next: string | null) => json(200, { data, pagination: { has_more: next !== null, next_cursor: next } });

/** The Org Export API of the synthetic org, in process: apps, sessions (with transcripts), empty tombstones and usage, a snapshot export. */
function syntheticOrg(withSnapshot: boolean): HttpTransport {
  const files = Math.ceil(sessions / FILE_ROWS);
  const transport: HttpTransport = {
    async get(pathAndQuery) {
      const url = new URL(pathAndQuery, 'http://org.invalid');
      if (url.pathname === '/api/v1/org/apps')
        return json(200, {
          data: [{ id: APP, name: 'Shop', slug: 'shop', created_at: new Date(BASE_MS).toISOString(), updated_at: new Date(BASE_MS).toISOString() }],
        });
      if (url.pathname === '/api/v1/org/sessions') {
        if (url.searchParams.has('updated_after')) return page([], null);
        const from = Number(url.searchParams.get('cursor') ?? 0);
        const to = Math.min(sessions, from + PAGE);
        return page(
          Array.from({ length: to - from }, (_, k) => sessionRow(from + k)),
          to < sessions ? String(to) : null,
        );
      }
      if (url.pathname === '/api/v1/org/exports/job-1') return json(200, { data: job() });
      return page([], null);
    },
  };
  const job = () => ({
    id: 'job-1',
    status: 'completed',
    lists: ['apps', 'sessions', 'usage', 'tombstones'],
    updated_after: new Date(BASE_MS + sessions * 1000).toISOString(),
    error: null,
    files: Array.from({ length: files }, (_, f) => ({ list: 'sessions', url: `mem://sessions/${f}`, rows: Math.min(FILE_ROWS, sessions - f * FILE_ROWS) })),
  });
  if (!withSnapshot) return transport;
  return {
    ...transport,
    async post() {
      return json(201, { data: job() });
    },
    async download(url) {
      const f = Number(url.split('/').pop());
      const lines: string[] = [];
      for (let i = f * FILE_ROWS; i < Math.min(sessions, (f + 1) * FILE_ROWS); i++) lines.push(JSON.stringify(sessionRow(i)));
      return { status: 200, bytes: gzipSync(`${lines.join('\n')}\n`) };
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'client-memory-'));
const started = performance.now();
let rows = 0;
try {
  if (values.store !== 'none') {
    const store: LocalStore = values.store === 'json' ? new JsonDirStore(join(dir, 'copy')) : await DuckDbStore.open(join(dir, 'copy.duckdb'));
    const summary = await syncOnce({
      transport: syntheticOrg(values.path === 'snapshot'),
      store,
      firstLoad: values.path === 'snapshot' ? 'snapshot' : 'pages',
      sleep: async () => undefined,
    });
    rows = summary.copy.sessions + summary.copy.messages;
    if (summary.copy.sessions !== sessions) throw new Error(`synced ${summary.copy.sessions} sessions of ${sessions}`);
    await store.close?.();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
// maxRSS is in kilobytes.
console.log(JSON.stringify({ peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024), seconds: (performance.now() - started) / 1000, rows }));
