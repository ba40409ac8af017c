import type { KeysetPosition } from '../domain/cursor';
import type { ExportChunkMessage, ExportJob } from '../domain/export-job';
import type { Session } from '../../conversations/domain/session';
import type { Micros } from '../../kernel/domain/time';
import type { Tombstone } from '../../conversations/domain/tombstone';
import type { UsageRow } from '../../conversations/domain/usage';
import type { ConversationDeps, SessionReader } from '../../conversations/app/conversation-ports';

/**
 * One page of an export list in (sort value, id) descending order: rows at or above `lowerUs`, at or
 * below the visibility cutoff `upperUs`, and strictly below `after` when continuing a pass.
 */
export interface KeysetWindow {
  readonly lowerUs?: Micros;
  readonly upperUs: Micros;
  readonly after?: KeysetPosition;
  readonly limit: number;
}

export interface KeysetPage<T> {
  readonly rows: T[];
  readonly hasMore: boolean;
  /** Where the next page continues: the last row returned, or the last row examined by a post-filter. */
  readonly last?: KeysetPosition;
}

/** The org export's reads: one index query per page, whatever the org's size. */
export interface ExportReader {
  sessions(
    orgId: string,
    window: KeysetWindow,
    filter: { readonly appId?: string; readonly startedFromUs?: Micros; readonly startedBeforeUs?: Micros },
  ): Promise<KeysetPage<Session>>;
  usage(orgId: string, window: KeysetWindow): Promise<KeysetPage<UsageRow>>;
  tombstones(orgId: string, window: KeysetWindow, filter: { readonly cause?: string }): Promise<KeysetPage<Tombstone>>;
}

/** Platform-wide secret material, created once and kept in the table (encrypted at rest). */
export interface KeyMaterial {
  /** The HMAC key of export cursors. */
  cursorKey(): Promise<Uint8Array>;
}

/** What the Org Export API reads beyond the shared conversation stores. */
export interface ExportPorts {
  readonly exportReader: ExportReader;
  readonly keys: KeyMaterial;
}

/** Everything a use case of this area may pick its deps from. */
export type ExportDeps = Omit<ConversationDeps, 'sessions'> & ExportPorts & { readonly sessions: SessionReader };

/** Bulk snapshot jobs (docs/adr/0031), one item each; they expire with the table's TTL. */
export interface ExportJobStore {
  create(job: ExportJob, expiresAtUs: Micros): Promise<void>;
  get(id: string): Promise<ExportJob | undefined>;
  /** Writes `next` when the stored job is still at `expectedVersion`; false when another write came first. */
  replace(next: ExportJob, expectedVersion: number): Promise<boolean>;
}

/** An org's bulk snapshot jobs, by key: what the console lists. */
export interface ExportJobList {
  /**
   * Up to `limit` jobs of the org, newest first, strictly below `after` (a job's creation time and id);
   * expired jobs drop out.
   */
  listByOrg(orgId: string, limit: number, after?: KeysetPosition): Promise<ExportJob[]>;
}

/** The exports queue: one message per chunk to write. */
export interface ExportChunkQueue {
  send(message: ExportChunkMessage): Promise<void>;
}

/** The snapshot's objects in the bucket, and links a client downloads them with. */
export interface ExportObjects {
  /** Writes the lines as one gzipped NDJSON object (replacing one of that key); the object's size in bytes. */
  putNdjson(key: string, lines: readonly string[]): Promise<number>;
  /** A URL that fetches the object without credentials for `seconds` (presigned on AWS). */
  downloadUrl(key: string, seconds: number): Promise<string>;
}

/** What the snapshot export's routes and worker need beyond the export's reads. */
export interface ExportJobPorts {
  readonly exportJobs: ExportJobStore;
  readonly exportChunks: ExportChunkQueue;
  readonly exportObjects: ExportObjects;
}

/** What the console's list of an org's exports reads. */
export interface ExportJobListPorts {
  readonly exportJobList: ExportJobList;
}
