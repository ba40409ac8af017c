/**
 * Wire shapes of the spec's resources, built from domain values: what the export's lists answer and
 * what its snapshot files hold, one row per line.
 */
import type { App } from '../../tenancy/domain/app';
import { endedAtOf, lastActivityOf, type Message, type Session } from '../../conversations/domain/session';
import { microsToIso } from '../../kernel/domain/time';
import type { Tombstone } from '../../conversations/domain/tombstone';
import type { UsageRow } from '../../conversations/domain/usage';

export function exportApp(app: App) {
  return { id: app.id, name: app.name, slug: app.slug, created_at: microsToIso(app.createdAtUs), updated_at: microsToIso(app.updatedAtUs) };
}

/** The session subset of the messages response. */
export function exportSessionSubset(s: Session) {
  return {
    id: s.id,
    app_id: s.appId,
    consumer_id: s.consumerId,
    consumer_email: s.consumerEmail,
    title: s.title,
    source: s.source,
    external_id: s.externalId,
    query_params: s.queryParams.map((q) => ({ name: q.name, value: q.value })),
    started_at: microsToIso(s.startedAtUs),
  };
}

/** The list form of a session. */
export function exportSession(s: Session) {
  return {
    ...exportSessionSubset(s),
    ended_at: microsToIso(endedAtOf(s)),
    last_activity_at: microsToIso(lastActivityOf(s)),
    last_message_at: s.lastMessageAtUs === null ? null : microsToIso(s.lastMessageAtUs),
  };
}

/**
 * A message; tool markers only when asked for, and only on messages that have any. A `tool` message
 * (a client tool's result) keeps its output out of the export, as markers keep every tool's input and
 * output out: its content is empty and its marker names the call it answers.
 */
export function exportMessage(m: Message, includeTools: boolean) {
  const base = { id: m.id, role: m.role, content: m.role === 'tool' ? '' : m.content, created_at: microsToIso(m.createdAtUs) };
  if (!includeTools || !m.tools || m.tools.length === 0) return base;
  const tools = m.tools.map((t) => ({
    ...(t.id !== undefined ? { id: t.id } : {}),
    ...(t.name !== undefined ? { name: t.name } : {}),
    ...(t.type !== undefined ? { type: t.type } : {}),
    ...(t.component !== undefined ? { component: t.component } : {}),
    ...(t.success !== undefined ? { success: t.success } : {}),
  }));
  return { ...base, tools };
}

/** A usage row: no personal data; `cost_usd` as a decimal string. */
export function exportUsageRow(u: UsageRow) {
  return {
    id: u.id,
    app_id: u.appId,
    session_id: u.sessionId,
    consumer_id: u.consumerId,
    model: u.model,
    source: u.source,
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    cache_read_input_tokens: u.cacheReadInputTokens,
    cache_creation_input_tokens: u.cacheCreationInputTokens,
    cost_usd: u.costUsd,
    created_at: microsToIso(u.createdAtUs),
  };
}

/** A tombstone: no content, title or email. */
export function exportTombstone(t: Tombstone) {
  return { id: t.id, resource_type: t.resourceType, resource_id: t.resourceId, cause: t.cause, deleted_at: microsToIso(t.deletedAtUs) };
}

/** A session row with its transcript (`include=messages`). */
export interface SessionWithMessages {
  readonly session: Session;
  /** The transcript as the messages endpoint gives it now; null when it alone outweighs a page (read it there). */
  readonly messages: readonly Message[] | null;
  readonly zdr: boolean;
}

/** A session row with its transcript (`include=messages`); `messages: null` when it alone outweighs a page. */
export function exportSessionWithMessages(row: SessionWithMessages, includeTools: boolean) {
  return { ...exportSession(row.session), messages: row.messages?.map((m) => exportMessage(m, includeTools)) ?? null, zdr: row.zdr };
}
