import type { KeysetPosition } from '../domain/cursor';
import type { Session } from '../../conversations/domain/session';
import type { Micros } from '../../platform/domain/time';
import type { Tombstone } from '../../conversations/domain/tombstone';
import type { UsageRow } from '../../conversations/domain/usage';
import type { ConversationDeps } from '../../conversations/ports/conversation-ports';

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
export type ExportDeps = ConversationDeps & ExportPorts;
