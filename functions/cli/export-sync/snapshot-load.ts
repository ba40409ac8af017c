/**
 * The first load from a bulk snapshot export (`POST /api/v1/org/exports`, docs/adr/0031): create the
 * job, poll it, download its gzipped NDJSON files and build a fresh copy from them, with both
 * checkpoints at the export's watermark so the incremental passes continue from there without a gap.
 * A server without the resource (404) answers null: the caller pages through the lists instead.
 */
import { gunzipSync } from 'node:zlib';
import { ExportApiError, type ExportApi } from './export-api';
import { emptyCopy, type ExportedApp, type ExportedSession, type ExportedUsageRow, type LocalCopy, type Tombstone } from './local-store';
import { applyTombstone } from './tombstone-rules';

const EXPORTS = '/api/v1/org/exports';

export interface SnapshotSummary {
  readonly id: string;
  readonly files: number;
  readonly rows: number;
  /** The watermark: the copy holds what was visible at it; the checkpoints start there. */
  readonly updated_after: string;
}

interface ExportJob {
  readonly id: string;
  readonly status: string;
  readonly lists: readonly string[];
  readonly updated_after: string;
  readonly files: readonly { readonly list: string; readonly url: string; readonly rows: number }[];
  readonly error: string | null;
}

function jobOf(body: unknown, path: string): ExportJob {
  const job = (body as { data?: ExportJob } | null)?.data;
  if (!job || typeof job.id !== 'string' || typeof job.status !== 'string' || !Array.isArray(job.files) || typeof job.updated_after !== 'string') {
    throw new ExportApiError(200, path, body, `${path}: unexpected response shape`);
  }
  return job;
}

export async function loadSnapshot(
  api: ExportApi,
  opts: { sleep: (ms: number) => Promise<void>; pollMs: number; progress: (list: string, rows: number, done?: boolean) => void },
): Promise<{ copy: LocalCopy; summary: SnapshotSummary } | null> {
  const created = await api.post(EXPORTS, {}, { notFoundAsNull: true });
  if (created === null) return null;
  let job = jobOf(created, EXPORTS);
  const path = `${EXPORTS}/${encodeURIComponent(job.id)}`;
  // Polls back off to one every ten intervals: a long export costs few requests of the key's budget.
  for (let n = 0; job.status === 'running'; n++) {
    await opts.sleep(Math.min(opts.pollMs * 10, Math.round(opts.pollMs * 1.5 ** n)));
    job = jobOf(await api.get(path), path);
  }
  if (job.status !== 'completed') throw new ExportApiError(200, path, job, `export ${job.id} ${job.status}: ${job.error ?? 'no reason given'}`);

  const copy = emptyCopy();
  const tombstones: Tombstone[] = [];
  const counts = new Map<string, number>();
  let rows = 0;
  for (const file of job.files) {
    const text = Buffer.from(gunzipSync(await api.download(file.url))).toString('utf8');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const row = JSON.parse(line) as Record<string, unknown>;
      rows++;
      if (file.list === 'apps') copy.apps.set(String(row.id), row as ExportedApp);
      else if (file.list === 'sessions') {
        const { messages, zdr, ...session } = row;
        copy.sessions.set(String(row.id), { session: session as ExportedSession, messages: Array.isArray(messages) ? messages : [], zdr: zdr === true });
      } else if (file.list === 'usage') copy.usage.set(String(row.id), row as ExportedUsageRow);
      else if (file.list === 'tombstones') tombstones.push(row as Tombstone);
    }
    counts.set(file.list, (counts.get(file.list) ?? 0) + file.rows);
    opts.progress(`snapshot ${file.list}`, counts.get(file.list)!);
  }
  for (const list of counts.keys()) opts.progress(`snapshot ${list}`, counts.get(list)!, true);
  // A session tombstoned before the watermark may still have been listed (its removal commits after
  // its tombstone): the tombstones apply after the sessions, as in every run.
  const tombstoned = new Set<string>();
  const erased = new Set<string>();
  for (const t of tombstones) {
    applyTombstone(copy, t, tombstoned, erased);
    copy.tombstones.set(t.id, t);
  }
  copy.state.ingestedTombstoneIds = tombstones.map((t) => t.id);
  copy.state.tombstonedSessionIds = [...tombstoned];
  copy.state.erasedConsumerIds = [...erased];
  copy.state.sessionsCheckpoint = job.lists.includes('sessions') ? job.updated_after : null;
  copy.state.usageCheckpoint = job.lists.includes('usage') ? job.updated_after : null;
  return { copy, summary: { id: job.id, files: job.files.length, rows, updated_after: job.updated_after } };
}
