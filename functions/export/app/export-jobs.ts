/**
 * Bulk snapshot exports (docs/adr/0031): create a job, read it with its download links, and write one
 * chunk of one list (the worker). Every list is read as a keyset window at or below the job's
 * watermark, so the snapshot joins the incremental feed (`updated_after` / `since` = the watermark)
 * without a gap.
 */
import { notFound } from '../../kernel/domain/errors';
import type { OrgScope } from '../../kernel/domain/scopes';
import type { KeysetPosition } from '../domain/cursor';
import {
  afterChunk,
  CHUNK_BYTES,
  CHUNK_ROWS,
  chunkKey,
  DOWNLOAD_URL_SECONDS,
  failedJob,
  newExportJob,
  requestedLists,
  STALLED_AFTER_US,
  type ExportChunkMessage,
  type ExportFile,
  type ExportJob,
  type ExportList,
} from '../domain/export-job';
import { exportApp, exportSessionWithMessages, exportTombstone, exportUsageRow } from '../domain/export-rows';
import { EXPORT_RETENTION_DAYS } from '../domain/export-storage';
import type { ExportDeps, ExportJobListPorts, ExportJobPorts, KeysetPage } from './export-ports';
import { transcriptBatches } from './session-transcripts';

export type ExportJobDeps = Pick<ExportDeps, 'exportReader' | 'sessions' | 'apps' | 'clock' | 'settings' | 'ids'> & ExportJobPorts;

const DAY_US = 86_400 * 1_000_000;
/** Rows a keyset read asks for while a chunk fills. */
const PAGE = 100;

/** POST /exports: a job over the lists the request names (or every list the key may read), its first chunks queued. */
export async function createExportJob(deps: ExportJobDeps, input: { orgId: string; scopes: readonly OrgScope[]; body: Record<string, unknown> }) {
  const lists = requestedLists(input.body, input.scopes);
  const nowUs = deps.clock.nowUs();
  const job = newExportJob({ id: deps.ids.uuid(), orgId: input.orgId, lists, nowUs, watermarkUs: nowUs - deps.settings.visibilityDelayMs * 1000 });
  await deps.exportJobs.create(job, nowUs + EXPORT_RETENTION_DAYS * DAY_US);
  // A crash before every message is out leaves a job that a poll finds stalled, and starts again.
  for (const list of lists) await deps.exportChunks.send({ jobId: job.id, list, chunk: 0 });
  return job;
}

export interface ExportJobView {
  readonly job: ExportJob;
  /** Download links of a completed job's files, in its files' order. */
  readonly urls: readonly string[];
  readonly urlsExpireAtUs: number;
}

/** GET /exports/{id}: the job of the caller's org (another org's is a 404), with fresh download links once completed. */
export async function getExportJob(deps: ExportJobDeps, input: { orgId: string; jobId: string; scopes: readonly OrgScope[] }): Promise<ExportJobView> {
  let job = await deps.exportJobs.get(input.jobId);
  if (!job || job.orgId !== input.orgId) throw notFound('Export not found');
  // The key that reads a job needs the scopes of what it holds, as the key that created it did.
  requestedLists({ lists: [...job.lists] }, input.scopes);
  const nowUs = deps.clock.nowUs();
  if (job.status === 'running' && nowUs - job.updatedAtUs > STALLED_AFTER_US) job = await restart(deps, job, nowUs);
  const urls = job.status === 'completed' ? await Promise.all(job.files.map((f) => deps.exportObjects.downloadUrl(f.key, DOWNLOAD_URL_SECONDS))) : [];
  return { job, urls, urlsExpireAtUs: nowUs + DOWNLOAD_URL_SECONDS * 1_000_000 };
}

/**
 * The org's jobs, newest first, `limit` a page, continuing strictly below `after` (the last job of the
 * previous page). No download links: reading one job gives them.
 */
export async function listExportJobs(
  deps: ExportJobListPorts,
  input: { orgId: string; limit: number; after?: KeysetPosition },
): Promise<{ jobs: ExportJob[]; hasMore: boolean }> {
  const jobs = await deps.exportJobList.listByOrg(input.orgId, input.limit + 1, input.after);
  return { jobs: jobs.slice(0, input.limit), hasMore: jobs.length > input.limit };
}

/** A running job nobody advanced for a while lost a message: the next chunk of each unfinished list is sent again. */
async function restart(deps: ExportJobDeps, job: ExportJob, nowUs: number): Promise<ExportJob> {
  const touched = { ...job, updatedAtUs: nowUs, version: job.version + 1 };
  if (!(await deps.exportJobs.replace(touched, job.version))) return (await deps.exportJobs.get(job.id)) ?? job;
  for (const p of job.progress) if (!p.done) await deps.exportChunks.send({ jobId: job.id, list: p.list, chunk: p.chunk });
  return touched;
}

interface Chunk {
  readonly lines: string[];
  readonly next: KeysetPosition | undefined;
  readonly done: boolean;
}

/**
 * The worker: writes chunk `message.chunk` of one list, records it, and queues the next. A message for a
 * chunk already recorded (a redelivery after a crash, a duplicate) writes nothing; when it is a
 * redelivery (`redelivered`) the next chunk's message may be what the crash lost, so it is sent again
 * (a duplicate of it is harmless in turn).
 */
export async function runExportChunk(
  deps: ExportJobDeps,
  message: ExportChunkMessage,
  delivery: { readonly redelivered: boolean; readonly last: boolean },
): Promise<void> {
  try {
    await writeChunk(deps, message, delivery.redelivered);
  } catch (err) {
    // On its last delivery a failing chunk fails its job, so a poll says so instead of waiting for ever;
    // the message still fails and goes to the dead-letter queue.
    if (delivery.last) await failJob(deps, message, err);
    throw err;
  }
}

async function failJob(deps: ExportJobDeps, message: ExportChunkMessage, err: unknown): Promise<void> {
  for (let job = await deps.exportJobs.get(message.jobId); job?.status === 'running'; job = await deps.exportJobs.get(message.jobId)) {
    const failed = failedJob(job, {
      list: message.list,
      chunk: message.chunk,
      reason: err instanceof Error ? err.message : String(err),
      nowUs: deps.clock.nowUs(),
    });
    if (await deps.exportJobs.replace(failed, job.version)) return;
  }
}

async function writeChunk(deps: ExportJobDeps, message: ExportChunkMessage, redelivered: boolean): Promise<void> {
  const job = await deps.exportJobs.get(message.jobId);
  if (job?.status !== 'running') return;
  const progress = job.progress.find((p) => p.list === message.list);
  if (!progress) return;
  if (progress.done || progress.chunk !== message.chunk) {
    if (redelivered && !progress.done && progress.chunk > message.chunk) await deps.exportChunks.send({ ...message, chunk: progress.chunk });
    return;
  }
  const chunk = await readChunk(deps, job, message.list, progress.after);
  let file: ExportFile | undefined;
  if (chunk.lines.length > 0 || message.chunk === 0) {
    const key = chunkKey(job, message.list, message.chunk, deps.ids.uuid().slice(0, 8));
    const bytes = await deps.exportObjects.putNdjson(key, chunk.lines);
    file = { list: message.list, chunk: message.chunk, key, rows: chunk.lines.length, bytes };
  }
  // The lists of a job advance at once (one message each): a write that lost to another list's is
  // applied again on the job as it is now, until it lands or this chunk turns out recorded already.
  for (let current: ExportJob | undefined = job; current && current.status === 'running'; current = await deps.exportJobs.get(job.id)) {
    const at = current.progress.find((p) => p.list === message.list);
    // Another worker recorded this chunk first: its write (the same rows, from the same position) stands.
    if (!at || at.done || at.chunk !== message.chunk) return;
    const next = afterChunk(current, { list: message.list, file, next: chunk.next, done: chunk.done, nowUs: deps.clock.nowUs() });
    if (await deps.exportJobs.replace(next, current.version)) {
      if (!chunk.done) await deps.exportChunks.send({ ...message, chunk: message.chunk + 1 });
      return;
    }
  }
}

/** Rows of one list from `after` down, until the chunk holds CHUNK_ROWS rows or CHUNK_BYTES, or the list ends. */
async function readChunk(deps: ExportJobDeps, job: ExportJob, list: ExportList, after: KeysetPosition | undefined): Promise<Chunk> {
  if (list === 'apps') {
    const apps = await deps.apps.listByOrg(job.orgId);
    return { lines: apps.map((a) => JSON.stringify(exportApp(a))), next: undefined, done: true };
  }
  const lines: string[] = [];
  let bytes = 0;
  let position = after;
  for (;;) {
    const window = { upperUs: job.watermarkUs, limit: PAGE, ...(position ? { after: position } : {}) };
    const page: KeysetPage<string> = await readPage(deps, job, list, window);
    for (const line of page.rows) {
      lines.push(line);
      bytes += Buffer.byteLength(line) + 1;
    }
    position = page.last ?? position;
    if (!page.hasMore) return { lines, next: position, done: true };
    if (lines.length >= CHUNK_ROWS || bytes >= CHUNK_BYTES) return { lines, next: position, done: false };
  }
}

/** One keyset page of a list as NDJSON lines; a session with its transcript, as `include=messages,tool_details` shows it. */
async function readPage(
  deps: ExportJobDeps,
  job: ExportJob,
  list: Exclude<ExportList, 'apps'>,
  window: { upperUs: number; limit: number; after?: KeysetPosition },
): Promise<KeysetPage<string>> {
  if (list === 'usage') {
    const page = await deps.exportReader.usage(job.orgId, window);
    return { ...page, rows: page.rows.map((u) => JSON.stringify(exportUsageRow(u))) };
  }
  if (list === 'tombstones') {
    const page = await deps.exportReader.tombstones(job.orgId, window, {});
    return { ...page, rows: page.rows.map((t) => JSON.stringify(exportTombstone(t))) };
  }
  const page = await deps.exportReader.sessions(job.orgId, window, {});
  const rows: string[] = [];
  // A session removed since the index read is left out: its tombstone is in the feed.
  for await (const batch of transcriptBatches(deps, page.rows)) {
    for (const row of batch.rows) if (row) rows.push(JSON.stringify(exportSessionWithMessages(row, true)));
  }
  return { rows, hasMore: page.hasMore, ...(page.last ? { last: page.last } : {}) };
}
