import { DomainError, notFound } from '../../kernel/domain/errors';
import { exportableQueryParams, type MessageRole, type QueryParam, type Session, type ToolMarker } from '../domain/session';
import type { Micros } from '../../kernel/domain/time';
import type { ConversationDeps, TurnSessionStore } from './conversation-ports';

/** One historical session with its messages, as parsed from a JSONL line by the admin handler. */
export interface ImportRecord {
  readonly session: {
    readonly id?: string;
    readonly title: string;
    readonly source: string;
    readonly externalId: string | null;
    readonly queryParams: readonly QueryParam[];
    readonly startedAtUs: Micros;
  };
  /** `null` for an anonymous consumer; an email reuses the app's consumer with that email. */
  readonly consumer: { readonly email: string | null } | null;
  readonly messages: readonly {
    readonly id?: string;
    readonly role: MessageRole;
    readonly content: string;
    readonly createdAtUs: Micros;
    readonly tools?: readonly ToolMarker[];
  }[];
}

type ImportDeps = Pick<ConversationDeps, 'apps' | 'consumers' | 'tombstones' | 'ids' | 'clock' | 'settings'> & { readonly sessions: TurnSessionStore };

/**
 * Imports historical sessions into an app. Each session is touched at import time, so exports pick it
 * up above any checkpoint; messages keep their historical times. Touch first: the session item (with
 * its touch) is written before its messages, and touched again if the sequence took longer than half
 * the visibility delay. Re-importing a record with the same session id is idempotent.
 */
export async function importSessions(
  deps: ImportDeps,
  input: { appId: string; records: readonly ImportRecord[] },
): Promise<{ orgId: string; sessionIds: string[] }> {
  const app = await deps.apps.get(input.appId);
  if (!app || app.deletedAtUs !== undefined) throw notFound('App not found');
  // A deleted session stays deleted: its tombstone was published and its id must not come back.
  // Checked for every record before anything is written, so a refused import writes nothing.
  for (const record of input.records) {
    const id = record.session.id;
    if (id !== undefined && (await deps.tombstones.find('session', id))) {
      throw new DomainError('conflict', `Session ${id} was deleted; import it under a new id`);
    }
  }
  const sessionIds: string[] = [];
  for (const record of input.records) {
    sessionIds.push(await importOne(deps, app.orgId, app.id, app.settings.zeroDataRetention, record));
  }
  return { orgId: app.orgId, sessionIds };
}

async function importOne(deps: ImportDeps, orgId: string, appId: string, zdr: boolean, record: ImportRecord): Promise<string> {
  const startedUs = deps.clock.nowUs();
  const messages = zdr ? [] : record.messages;
  const lastMessageAtUs = messages.length ? Math.max(...messages.map((m) => m.createdAtUs)) : null;
  const id = record.session.id ?? deps.ids.uuid();
  const existing = await deps.sessions.get(id);
  if (existing && existing.appId !== appId) throw notFound(`Session ${id} belongs to another app`);
  // A re-imported session keeps its consumer: resolving the record's consumer again would create a new
  // anonymous consumer on every retry (anonymous consumers have no key to find them by).
  const consumer = existing
    ? existing.consumerId !== null
      ? ((await deps.consumers.get(existing.consumerId)) ?? null)
      : null
    : record.consumer
      ? await resolveConsumer(deps, orgId, appId, record.consumer.email)
      : null;
  if (!existing) {
    const session: Session = {
      id,
      orgId,
      appId,
      consumerId: consumer?.id ?? null,
      consumerEmail: consumer?.email ?? null,
      title: record.session.title,
      source: record.session.source,
      externalId: record.session.externalId,
      queryParams: exportableQueryParams(record.session.queryParams),
      startedAtUs: record.session.startedAtUs,
      lastMessageAtUs,
      touchedAtUs: startedUs,
    };
    await deps.sessions.create(session);
  } else {
    await deps.sessions.touch(id, startedUs, lastMessageAtUs ?? undefined);
  }
  for (const [i, m] of messages.entries()) {
    await deps.sessions.putMessage({
      id: m.id ?? `${id}-import-${i}`,
      sessionId: id,
      role: m.role,
      content: m.content,
      createdAtUs: m.createdAtUs,
      ...(m.tools ? { tools: m.tools } : {}),
    });
  }
  if (consumer && lastMessageAtUs !== null) await deps.consumers.markActive(consumer.id, lastMessageAtUs);
  if (deps.clock.nowUs() - startedUs > (deps.settings.visibilityDelayMs * 1000) / 2) {
    await deps.sessions.touch(id, deps.clock.nowUs());
  }
  return id;
}

async function resolveConsumer(deps: ImportDeps, orgId: string, appId: string, email: string | null) {
  if (email !== null) {
    const known = await deps.consumers.findByEmail(appId, email);
    if (known) return known;
  }
  const now = deps.clock.nowUs();
  const consumer = { id: deps.ids.uuid(), orgId, appId, email, createdAtUs: now, lastActiveAtUs: now };
  await deps.consumers.create(consumer);
  return consumer;
}
