/**
 * The first load from a bulk snapshot export (`POST /api/v1/org/exports`, docs/adr/0031): create the
 * job, poll it, download its gzipped NDJSON files and write them over the copy row by row, with both
 * checkpoints at the export's watermark so the incremental passes continue from there without a gap.
 * A server without the resource (404) answers null: the caller pages through the lists instead.
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ExportApiError, type ExportApi } from './export-api';
import type { CopyPass, ExportedApp, ExportedSession, ExportedUsageRow, SessionPut, Tombstone } from './local-store';
import { applyTombstone } from './tombstone-rules';

const EXPORTS = '/api/v1/org/exports';

export interface SnapshotSummary {
  readonly id: string;
  readonly files: number;
  readonly rows: number;
  /** The watermark: the copy holds what was visible at it; the checkpoints start there. */
  readonly updated_after: string;
}

export interface ExportJob {
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

/** Creates a snapshot export and polls it to its end; null when the server has no snapshot exports (404). */
export async function awaitSnapshot(api: ExportApi, opts: { sleep: (ms: number) => Promise<void>; pollMs: number }): Promise<ExportJob | null> {
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
  return job;
}

/** The NDJSON rows of one downloaded file, a line at a time (a file is never held decompressed as a whole). */
async function* ndjsonRows(gzipped: Uint8Array): AsyncGenerator<Record<string, unknown>> {
  const lines = createInterface({ input: Readable.from([Buffer.from(gzipped)]).pipe(createGunzip()), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (line !== '') yield JSON.parse(line) as Record<string, unknown>;
  }
}

/** Rows written to the pass at a time. */
const BATCH = 500;

/**
 * Replaces the copy with a completed export's files, through one pass: apps, sessions with their
 * transcripts and usage rows are written in batches as they are read, then the tombstones are applied,
 * and both checkpoints start at the export's watermark.
 */
export async function writeSnapshot(
  api: ExportApi,
  job: ExportJob,
  pass: CopyPass,
  progress: (list: string, rows: number, done?: boolean) => void,
): Promise<SnapshotSummary> {
  await pass.clear();
  const tombstones: Tombstone[] = [];
  const counts = new Map<string, number>();
  let rows = 0;
  for (const file of job.files) {
    let apps: ExportedApp[] = [];
    let sessions: SessionPut[] = [];
    let usage: ExportedUsageRow[] = [];
    const flush = async () => {
      await pass.putApps(apps);
      await pass.putSessions(sessions);
      await pass.putUsage(usage);
      apps = [];
      sessions = [];
      usage = [];
    };
    for await (const row of ndjsonRows(await api.download(file.url))) {
      rows++;
      if (file.list === 'apps') apps.push(row as ExportedApp);
      else if (file.list === 'sessions') {
        const { messages, zdr, ...session } = row;
        sessions.push({ session: session as ExportedSession, messages: Array.isArray(messages) ? messages : [], zdr: zdr === true });
      } else if (file.list === 'usage') usage.push(row as ExportedUsageRow);
      else if (file.list === 'tombstones') tombstones.push(row as Tombstone);
      if (apps.length + sessions.length + usage.length >= BATCH) await flush();
    }
    await flush();
    counts.set(file.list, (counts.get(file.list) ?? 0) + file.rows);
    progress(`snapshot ${file.list}`, counts.get(file.list)!);
  }
  for (const list of counts.keys()) progress(`snapshot ${list}`, counts.get(list)!, true);
  // A session tombstoned before the watermark may still have been listed (its removal commits after
  // its tombstone): the tombstones apply after the sessions, as in every run.
  for (const t of tombstones) await applyTombstone(pass, t);
  await pass.addTombstones(tombstones);
  await pass.setCheckpoint('sessions', job.lists.includes('sessions') ? job.updated_after : null);
  await pass.setCheckpoint('usage', job.lists.includes('usage') ? job.updated_after : null);
  return { id: job.id, files: job.files.length, rows, updated_after: job.updated_after };
}
