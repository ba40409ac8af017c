/**
 * The org export lists (area A). Each page is a keyset window: rows newer than the visibility cutoff
 * (now minus VISIBILITY_DELAY_MS) are held back until everything that could sort below them has
 * committed (docs/design.md §3), and a signed cursor continues strictly below the last row of the page.
 */
import { decodeCursor, encodeCursor, type CursorBinding, type KeysetPosition } from '../domain/cursor';
import { notFound } from '../../kernel/domain/errors';
import { lastActivityOf, type Message, type Session } from '../../conversations/domain/session';
import type { Micros } from '../../kernel/domain/time';
import type { Tombstone } from '../../conversations/domain/tombstone';
import type { UsageRow } from '../../conversations/domain/usage';
import type { ExportDeps } from './export-ports';
import type { SessionWithMessages } from '../domain/export-rows';
import { transcriptBatches } from './session-transcripts';
import type { KeysetPage, KeysetWindow } from './export-ports';

export type ExportListDeps = Pick<ExportDeps, 'exportReader' | 'keys' | 'clock' | 'settings'>;
type SessionExportDeps = ExportListDeps & Pick<ExportDeps, 'apps'>;

export interface ExportPage<T> {
  readonly rows: T[];
  readonly hasMore: boolean;
  /** Always a cursor; with `hasMore` false, following it yields an empty page. */
  readonly nextCursor: string;
  readonly limit: number;
  /** A cursor of the same list that continues strictly below `position` (a page cut short). */
  cursorAfter(position: KeysetPosition): string;
}

/**
 * One keyset page of a list bound to `binding`: at or above `lowerUs`, at or below the visibility
 * cutoff (and `upperUs`, when the caller bounds the list lower than that).
 */
export async function listKeyset<T>(
  deps: ExportListDeps,
  binding: CursorBinding,
  input: { limit: number; cursor?: string; lowerUs?: Micros; upperUs?: Micros },
  read: (window: KeysetWindow) => Promise<KeysetPage<T>>,
): Promise<ExportPage<T>> {
  const key = await deps.keys.cursorKey();
  const after: KeysetPosition | undefined = input.cursor !== undefined ? decodeCursor(key, input.cursor, binding) : undefined;
  const cutoffUs = deps.clock.nowUs() - deps.settings.visibilityDelayMs * 1000;
  const upperUs = input.upperUs !== undefined ? Math.min(cutoffUs, input.upperUs) : cutoffUs;
  const page = await read({ upperUs, limit: input.limit, ...(input.lowerUs !== undefined ? { lowerUs: input.lowerUs } : {}), ...(after ? { after } : {}) });
  // An empty first page continues from the cutoff itself ('~' sorts above every id).
  const last = page.last ?? { sortUs: upperUs, id: '~' };
  return {
    rows: page.rows,
    hasMore: page.hasMore,
    nextCursor: encodeCursor(key, last, binding),
    limit: input.limit,
    cursorAfter: (position) => encodeCursor(key, position, binding),
  };
}

export interface SessionFilters {
  readonly appId?: string;
  readonly updatedAfterUs?: Micros;
  /** `started_after`: inclusive lower bound on started_at. */
  readonly startedFromUs?: Micros;
  /** `started_before`: exclusive upper bound on started_at. */
  readonly startedBeforeUs?: Micros;
}

/** GET /sessions: the org's sessions by (last_activity_at, id) descending. */
export async function exportSessions(
  deps: SessionExportDeps,
  input: { orgId: string; limit: number; cursor?: string } & SessionFilters,
): Promise<ExportPage<Session>> {
  const binding: CursorBinding = {
    endpoint: 'sessions',
    orgId: input.orgId,
    filters: {
      app_id: input.appId ?? null,
      updated_after: input.updatedAfterUs ?? null,
      started_after: input.startedFromUs ?? null,
      started_before: input.startedBeforeUs ?? null,
    },
  };
  // An app of another org (or none) answers an empty page without reading its partition: the app index
  // is not keyed by org, and a post-filtered read of a foreign partition would hand back has_more and
  // a cursor holding a position (time and session id) of that org.
  if (input.appId !== undefined && (await deps.apps.get(input.appId))?.orgId !== input.orgId) {
    return listKeyset(deps, binding, input, async (window) => ({ rows: [], hasMore: false, ...(window.after ? { last: window.after } : {}) }));
  }
  return listKeyset(deps, binding, { ...input, ...(input.updatedAfterUs !== undefined ? { lowerUs: input.updatedAfterUs } : {}) }, (window) =>
    deps.exportReader.sessions(input.orgId, window, {
      ...(input.appId !== undefined ? { appId: input.appId } : {}),
      ...(input.startedFromUs !== undefined ? { startedFromUs: input.startedFromUs } : {}),
      ...(input.startedBeforeUs !== undefined ? { startedBeforeUs: input.startedBeforeUs } : {}),
    }),
  );
}

/** What a page may weigh: each row's size as the response carries it, and the page's budget. */
export interface PageBudget {
  readonly maxBytes: number;
  sizeOf(row: SessionWithMessages): number;
}

/**
 * GET /sessions with `include=messages`: the same keyset page, each row with its whole transcript
 * (semantics of GET /sessions/{id}/messages: none for a Zero Data Retention app, an open turn hidden).
 * A session removed since the index read leaves the page (its tombstone follows). The page ends
 * early, with `has_more` and a cursor right after its last row, where the next row would break the
 * byte budget; a row that alone breaks it comes with `messages: null`.
 */
export async function exportSessionsWithMessages(
  deps: SessionExportDeps & Pick<ExportDeps, 'sessions'>,
  input: { orgId: string; limit: number; cursor?: string; budget: PageBudget } & SessionFilters,
): Promise<ExportPage<SessionWithMessages>> {
  const page = await exportSessions(deps, input);
  const rows: SessionWithMessages[] = [];
  let used = 0;
  for await (const { from, rows: read } of transcriptBatches(deps, page.rows)) {
    for (const [i, found] of read.entries()) {
      if (!found) continue;
      let row: SessionWithMessages = found;
      let size = input.budget.sizeOf(row);
      if (size > input.budget.maxBytes) {
        row = { ...row, messages: null };
        size = input.budget.sizeOf(row);
      }
      if (rows.length > 0 && used + size > input.budget.maxBytes) {
        const previous = page.rows[from + i - 1]!;
        return { ...page, rows, hasMore: true, nextCursor: page.cursorAfter({ sortUs: lastActivityOf(previous), id: previous.id }) };
      }
      rows.push(row);
      used += size;
    }
  }
  return { ...page, rows };
}

/** GET /usage: the org's usage rows by (created_at, id) descending, `since` inclusive. */
export function exportUsage(deps: ExportListDeps, input: { orgId: string; limit: number; cursor?: string; sinceUs?: Micros }): Promise<ExportPage<UsageRow>> {
  const binding: CursorBinding = { endpoint: 'usage', orgId: input.orgId, filters: { since: input.sinceUs ?? null } };
  return listKeyset(deps, binding, { ...input, ...(input.sinceUs !== undefined ? { lowerUs: input.sinceUs } : {}) }, (window) =>
    deps.exportReader.usage(input.orgId, window),
  );
}

/** GET /tombstones: the org's deletion feed by (deleted_at, id) descending, `cause` matched exactly. */
export function exportTombstones(
  deps: ExportListDeps,
  input: { orgId: string; limit: number; cursor?: string; cause?: string },
): Promise<ExportPage<Tombstone>> {
  const binding: CursorBinding = { endpoint: 'tombstones', orgId: input.orgId, filters: { cause: input.cause ?? null } };
  return listKeyset(deps, binding, input, (window) =>
    deps.exportReader.tombstones(input.orgId, window, input.cause !== undefined ? { cause: input.cause } : {}),
  );
}

export interface SessionTranscript {
  readonly session: Session;
  readonly messages: Message[];
  readonly zdr: boolean;
}

/**
 * GET /sessions/{id}/messages: one session of the caller's org with its messages in order. A session
 * of another org, or one being deleted, is 404; a Zero Data Retention app answers no messages.
 */
export async function getSessionTranscript(
  deps: Pick<ExportDeps, 'sessions' | 'apps'>,
  input: { orgId: string; sessionId: string },
): Promise<SessionTranscript> {
  const session = await deps.sessions.get(input.sessionId);
  if (!session || session.orgId !== input.orgId) throw notFound('Session not found');
  const app = await deps.apps.get(session.appId);
  const zdr = app?.settings.zeroDataRetention ?? false;
  return { session, messages: zdr ? [] : await deps.sessions.listMessages(session.id), zdr };
}
