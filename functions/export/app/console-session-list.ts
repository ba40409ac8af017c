/**
 * The console's list of an org's sessions: the export's keyset list (newest activity first, the same
 * visibility cutoff, a signed cursor bound to its filters), with filters the console needs. Each is
 * answered by key, never by reading the whole org:
 * - `appId`: the app's partition of the session index, as the export's `app_id`;
 * - `fromUs`/`toUs`: bounds on last activity, the list's own sort key (a range of the key condition);
 * - `consumerEmail`: the app's consumer of that address (one lookup per app of the org, or only `appId`'s),
 *   then that consumer's sessions (the consumer index);
 * - `externalId`: the external id's lookup items (one per session), then each session by key.
 * A consumer filter reads every session of the person it names on each page: one person's sessions,
 * whatever the org's size.
 */
import type { CursorBinding, KeysetPosition } from '../domain/cursor';
import { lastActivityOf, type Session } from '../../conversations/domain/session';
import type { Micros } from '../../kernel/domain/time';
import type { ExportDeps, KeysetPage, KeysetWindow } from './export-ports';
import { listKeyset, type ExportListDeps, type ExportPage } from './export-lists';

type ConsoleSessionListDeps = ExportListDeps & Pick<ExportDeps, 'apps' | 'consumers' | 'sessions'>;

export interface ConsoleSessionFilters {
  readonly appId?: string;
  /** Inclusive lower bound on last activity. */
  readonly fromUs?: Micros;
  /** Exclusive upper bound on last activity. */
  readonly toUs?: Micros;
  readonly externalId?: string;
  readonly consumerEmail?: string;
}

/** GET /console/v1/orgs/{orgId}/sessions: a keyset page of the org's sessions by (last activity, id) descending. */
export async function listConsoleSessions(
  deps: ConsoleSessionListDeps,
  input: { orgId: string; limit: number; cursor?: string } & ConsoleSessionFilters,
): Promise<ExportPage<Session>> {
  const email = input.consumerEmail?.toLowerCase();
  const binding: CursorBinding = {
    endpoint: 'console-sessions',
    orgId: input.orgId,
    filters: {
      app_id: input.appId ?? null,
      from: input.fromUs ?? null,
      to: input.toUs ?? null,
      external_id: input.externalId ?? null,
      consumer_email: email ?? null,
    },
  };
  const bounds = {
    limit: input.limit,
    ...(input.cursor !== undefined ? { cursor: input.cursor } : {}),
    ...(input.fromUs !== undefined ? { lowerUs: input.fromUs } : {}),
    ...(input.toUs !== undefined ? { upperUs: input.toUs - 1 } : {}),
  };
  // An app of another org answers nothing, as in the export: its partition is never read.
  const app = input.appId !== undefined ? await deps.apps.get(input.appId) : undefined;
  if (input.appId !== undefined && app?.orgId !== input.orgId) return listKeyset(deps, binding, bounds, async (w) => windowOf([], w));
  if (email === undefined && input.externalId === undefined) {
    return listKeyset(deps, binding, bounds, (window) =>
      deps.exportReader.sessions(input.orgId, window, input.appId !== undefined ? { appId: input.appId } : {}),
    );
  }
  const sessions = await sessionsOfPerson(deps, { orgId: input.orgId, appId: input.appId, email, externalId: input.externalId });
  return listKeyset(deps, binding, bounds, async (window) => windowOf(sessions, window));
}

/** The sessions a consumer filter names: the consumer's of that e-mail address, those of that external id, or both at once. */
async function sessionsOfPerson(
  deps: ConsoleSessionListDeps,
  filter: { orgId: string; appId: string | undefined; email: string | undefined; externalId: string | undefined },
): Promise<Session[]> {
  let found: Session[] | undefined;
  if (filter.externalId !== undefined) found = await deps.sessions.listByExternalId(filter.orgId, filter.externalId);
  if (filter.email !== undefined) {
    const email = filter.email;
    const appIds = filter.appId !== undefined ? [filter.appId] : (await deps.apps.listByOrg(filter.orgId)).map((a) => a.id);
    const consumers = await Promise.all(appIds.map((appId) => deps.consumers.findByEmail(appId, email)));
    const ids = new Set(consumers.flatMap((c) => (c && c.orgId === filter.orgId ? [c.id] : [])));
    found = found
      ? found.filter((s) => s.consumerId !== null && ids.has(s.consumerId))
      : (await Promise.all([...ids].map((id) => deps.sessions.listOfConsumer(id)))).flat();
  }
  return (found ?? []).filter((s) => s.orgId === filter.orgId && (filter.appId === undefined || s.appId === filter.appId));
}

const positionKey = (p: KeysetPosition) => `${String(p.sortUs).padStart(16, '0')}#${p.id}`;

/** The keyset window of sessions read in full: the same order, bounds and continuation as an index read. */
function windowOf(sessions: readonly Session[], window: KeysetWindow): KeysetPage<Session> {
  const hi = window.after ? positionKey(window.after) : `${positionKey({ sortUs: window.upperUs, id: '' })}~`;
  const keyed = sessions
    .map((s) => ({ s, position: { sortUs: lastActivityOf(s), id: s.id } }))
    .filter(({ position }) => position.sortUs >= (window.lowerUs ?? 0) && position.sortUs <= window.upperUs && positionKey(position) < hi)
    .sort((a, b) => (positionKey(a.position) < positionKey(b.position) ? 1 : -1));
  const rows = keyed.slice(0, window.limit);
  const last = rows.at(-1)?.position ?? window.after;
  return { rows: rows.map((r) => r.s), hasMore: keyed.length > window.limit, ...(last ? { last } : {}) };
}
