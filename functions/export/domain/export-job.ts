/**
 * A bulk snapshot export (docs/adr/0031): the org's lists as of a watermark, written chunk by chunk as
 * gzipped NDJSON objects by workers off the request path. The job records, per list, the next chunk and
 * the keyset position it continues below, so a redelivered chunk message finds its work done and a
 * crash mid-chunk redoes that chunk from the same position.
 */
import { badRequest, DomainError } from '../../kernel/domain/errors';
import type { OrgScope } from '../../kernel/domain/scopes';
import type { Micros } from '../../kernel/domain/time';
import type { KeysetPosition } from './cursor';
import { EXPORTS_PREFIX } from './export-storage';

export type ExportList = 'apps' | 'sessions' | 'usage' | 'tombstones';
export const EXPORT_LISTS: readonly ExportList[] = ['apps', 'sessions', 'usage', 'tombstones'];

/** The scope each list needs, as its own route does. */
export const SCOPE_OF: Readonly<Record<ExportList, OrgScope>> = {
  apps: 'apps:read',
  sessions: 'transcripts:read',
  usage: 'usage:read',
  tombstones: 'tombstones:read',
};

/** Rows in one object at most; a chunk also ends once it holds CHUNK_BYTES of NDJSON. */
export const CHUNK_ROWS = 5_000;
export const CHUNK_BYTES = 64 * 1024 * 1024;
/** How long a download URL works. */
export const DOWNLOAD_URL_SECONDS = 3_600;
/**
 * Longer than a chunk message's redelivery (the exports queue hides a message for six times the
 * worker's 300 s timeout): a running job untouched this long has lost its message.
 */
export const STALLED_AFTER_US = 35 * 60 * 1_000_000;

export type ExportJobStatus = 'running' | 'completed' | 'failed';

export interface ExportFile {
  readonly list: ExportList;
  readonly chunk: number;
  readonly key: string;
  readonly rows: number;
  /** Bytes of the gzipped object. */
  readonly bytes: number;
}

export interface ListProgress {
  readonly list: ExportList;
  /** The chunk the next message writes (0 for the first). */
  readonly chunk: number;
  readonly done: boolean;
  /** Where the next chunk continues (strictly below); absent before the first. */
  readonly after?: KeysetPosition;
}

export interface ExportJob {
  readonly id: string;
  readonly orgId: string;
  readonly lists: readonly ExportList[];
  readonly status: ExportJobStatus;
  readonly createdAtUs: Micros;
  /** The last write: a running job untouched for STALLED_AFTER_US has lost a message, and a poll sends it again. */
  readonly updatedAtUs: Micros;
  /** The visibility cutoff when the job was created: every list is read at or below it. */
  readonly watermarkUs: Micros;
  readonly progress: readonly ListProgress[];
  readonly files: readonly ExportFile[];
  readonly completedAtUs?: Micros;
  /** Why a failed job failed: a chunk that failed on its every delivery. */
  readonly error?: string;
  /** Bumped by every write; a write names the version it read. */
  readonly version: number;
}

/** The message that asks a worker for one chunk of one list. */
export interface ExportChunkMessage {
  readonly jobId: string;
  readonly list: ExportList;
  readonly chunk: number;
}

/**
 * The lists a create request names (`{"lists": [...]}`), or every list the key may read when it names
 * none; a named list outside the key's scopes is a 403, as its own route would answer.
 */
export function requestedLists(body: Record<string, unknown>, scopes: readonly OrgScope[]): ExportList[] {
  const extra = Object.keys(body).filter((k) => k !== 'lists');
  if (extra.length) throw badRequest(`Unsupported field${extra.length > 1 ? 's' : ''}: ${extra.join(', ')}`);
  if (body.lists === undefined) {
    const allowed = EXPORT_LISTS.filter((l) => scopes.includes(SCOPE_OF[l]));
    if (!allowed.length) throw new DomainError('forbidden', `API key lacks every scope an export needs: ${Object.values(SCOPE_OF).join(', ')}`);
    return allowed;
  }
  const raw = body.lists;
  if (!Array.isArray(raw) || raw.length === 0 || raw.some((l) => typeof l !== 'string' || !(EXPORT_LISTS as readonly string[]).includes(l))) {
    throw badRequest(`lists must be a non-empty array of ${EXPORT_LISTS.join(', ')}`);
  }
  const lists = EXPORT_LISTS.filter((l) => raw.includes(l));
  if (lists.length !== raw.length) throw badRequest('lists names a list twice');
  const missing = lists.find((l) => !scopes.includes(SCOPE_OF[l]));
  if (missing) throw new DomainError('forbidden', `API key lacks the required scope: ${SCOPE_OF[missing]}`);
  return lists;
}

/**
 * The object one attempt at a chunk writes: `exports/<org>/<job>/<list>-<chunk, 5 digits>-<attempt>.ndjson.gz`.
 * Each attempt writes its own object and the job records the one whose write won, so a duplicate running
 * at the same time never replaces the object the job describes; the others expire with the prefix.
 */
export function chunkKey(job: Pick<ExportJob, 'orgId' | 'id'>, list: ExportList, chunk: number, attempt: string): string {
  return `${EXPORTS_PREFIX}${job.orgId}/${job.id}/${list}-${String(chunk).padStart(5, '0')}-${attempt}.ndjson.gz`;
}

/** A new job: every list at its first chunk. */
export function newExportJob(input: { id: string; orgId: string; lists: readonly ExportList[]; nowUs: Micros; watermarkUs: Micros }): ExportJob {
  return {
    id: input.id,
    orgId: input.orgId,
    lists: input.lists,
    status: 'running',
    createdAtUs: input.nowUs,
    updatedAtUs: input.nowUs,
    watermarkUs: input.watermarkUs,
    progress: input.lists.map((list) => ({ list, chunk: 0, done: false })),
    files: [],
    version: 0,
  };
}

/** What a finished chunk makes of the job: its file recorded, its list moved on (or done), the job completed when every list is. */
export function afterChunk(
  job: ExportJob,
  input: { list: ExportList; file: ExportFile | undefined; next: KeysetPosition | undefined; done: boolean; nowUs: Micros },
): ExportJob {
  const progress = job.progress.map((p) =>
    p.list === input.list ? { list: p.list, chunk: p.chunk + 1, done: input.done, ...(input.next ? { after: input.next } : {}) } : p,
  );
  const completed = progress.every((p) => p.done);
  return {
    ...job,
    progress,
    updatedAtUs: input.nowUs,
    files: input.file ? [...job.files, input.file] : job.files,
    ...(completed ? { status: 'completed' as const, completedAtUs: input.nowUs } : {}),
    version: job.version + 1,
  };
}

/** A job whose chunk failed on its last delivery: failed, with the reason (its message goes to the dead-letter queue). */
export function failedJob(job: ExportJob, input: { list: ExportList; chunk: number; reason: string; nowUs: Micros }): ExportJob {
  return {
    ...job,
    status: 'failed',
    error: `chunk ${input.chunk} of ${input.list} failed: ${input.reason.slice(0, 500)}`,
    updatedAtUs: input.nowUs,
    version: job.version + 1,
  };
}
