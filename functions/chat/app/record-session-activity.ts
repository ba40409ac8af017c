/**
 * A chat session's activity: which session a request names, and the writes that change it, each
 * ordered "touch first" (docs/design.md §3): the session's touch clock moves before any dependent item
 * is written, so a reader that sees the new `last_activity_at` finds the dependents once the row is
 * visible; a sequence that ran longer than half the visibility delay touches again so a late commit
 * re-surfaces above any checkpoint taken meanwhile.
 */
import { notFound } from '../../kernel/domain/errors';
import { isUuid } from '../../kernel/domain/ids';
import { exportableQueryParams, type Message, type QueryParam, type Session } from '../../conversations/domain/session';
import type { Micros } from '../../kernel/domain/time';
import type { UsageRow } from '../../conversations/domain/usage';
import type { TurnLease } from '../../conversations/app/conversation-ports';
import type { ChatDeps } from './chat-ports';
import type { App } from '../../tenancy/domain/app';

type ActivityDeps = Pick<ChatDeps, 'apps' | 'sessions' | 'consumers' | 'usage' | 'ids' | 'clock' | 'settings'>;

async function retouchIfSlow(deps: ActivityDeps, sessionId: string, stampUs: Micros): Promise<void> {
  const now = deps.clock.nowUs();
  if (now - stampUs > (deps.settings.visibilityDelayMs * 1000) / 2) await deps.sessions.touch(sessionId, now);
}

async function liveSession(deps: ActivityDeps, sessionId: string): Promise<Session> {
  const session = await deps.sessions.get(sessionId);
  if (!session) throw notFound('Session not found');
  return session;
}

/**
 * The session a chat request names (a turn's `chatSessionId` / `X-Chat-Session-ID`, an upload's
 * `X-Chat-Session-ID`): a session of the caller's app, or `undefined` for one a first turn of that app
 * is still creating (its id comes in that turn's X-Chat-Session-ID before the turn is recorded, and it
 * has no consumer yet; docs/adr/0022). Anything else is a 404 that says nothing about other apps.
 */
export async function requireChatSessionOfApp(deps: Pick<ChatDeps, 'sessions'>, sessionId: string, appId: string): Promise<Session | undefined> {
  // Session ids are UUIDs: anything else names no session, and never reaches DynamoDB as a key.
  const found = isUuid(sessionId) ? await deps.sessions.lookup(sessionId) : undefined;
  if (found && 'session' in found && found.session.appId === appId) return found.session;
  if (found && 'reservedFor' in found && found.reservedFor === appId) return undefined;
  throw notFound('Chat session not found');
}

/** A new session of an app (for an anonymous consumer, a known one by id, or none), not written yet. */
export async function newSession(
  deps: ActivityDeps,
  input: {
    appId: string;
    /** The app as its caller already read it (a chat turn's admitted app): not read again. */
    app?: App;
    /** Chosen before the session exists (a background response names it at once). */
    id?: string;
    consumerId?: string | null;
    title?: string;
    source?: string;
    externalId?: string | null;
    queryParams?: readonly QueryParam[];
  },
): Promise<Session> {
  const app = input.app?.id === input.appId ? input.app : await deps.apps.get(input.appId);
  if (!app || app.deletedAtUs !== undefined) throw notFound('App not found');
  const consumer = input.consumerId ? await deps.consumers.get(input.consumerId) : undefined;
  if (input.consumerId && (!consumer || consumer.appId !== app.id)) throw notFound('Consumer not found');
  const now = deps.clock.nowUs();
  return {
    id: input.id ?? deps.ids.uuid(),
    orgId: app.orgId,
    appId: app.id,
    consumerId: consumer?.id ?? null,
    consumerEmail: consumer?.email ?? null,
    title: input.title ?? '',
    source: input.source ?? 'APP',
    externalId: input.externalId ?? null,
    queryParams: exportableQueryParams(input.queryParams ?? []),
    startedAtUs: now,
    lastMessageAtUs: null,
    touchedAtUs: now,
  };
}

/** Writes a session built by newSession (a chat turn writes it only once it has something to record). */
export async function createSession(deps: ActivityDeps, session: Session, lease?: TurnLease): Promise<number> {
  const version = await deps.sessions.create(session, lease);
  // A create that committed late would sit below a checkpoint a reader took meanwhile (docs/design.md §3).
  // (A retouch moves the version on: a turn that knew the first one then closes with a touch.)
  await retouchIfSlow(deps, session.id, session.touchedAtUs);
  return version;
}

/** Starts a session of an app, for an anonymous consumer, a known one (by id), or none. */
export async function startSession(
  deps: ActivityDeps,
  input: { appId: string; consumerId?: string | null; title?: string; source?: string; externalId?: string | null; queryParams?: readonly QueryParam[] },
): Promise<Session> {
  const session = await newSession(deps, input);
  await createSession(deps, session);
  return session;
}

/** A message a turn records; the session, time and turn are the append's. */
export type TurnMessage = Pick<Message, 'role' | 'content' | 'tools' | 'files' | 'toolCalls' | 'toolCallId'> & {
  /** Given when the id had to be known before the write (a Responses answer's item ids); else a new one. */
  readonly id?: string;
};

export type TurnUsage = Omit<UsageRow, 'id' | 'orgId' | 'appId' | 'sessionId' | 'consumerId' | 'createdAtUs'>;

/** A turn's message as the session stores it, stamped now (under `turnId`, the turn it is hidden in until it closes). */
function messageOf(deps: ActivityDeps, sessionId: string, m: TurnMessage, turnId: string | undefined): Message {
  return {
    id: m.id ?? deps.ids.uuid(),
    sessionId,
    role: m.role,
    content: m.content,
    createdAtUs: deps.clock.nowUs(),
    ...(m.tools ? { tools: m.tools } : {}),
    ...(m.files?.length ? { files: m.files } : {}),
    ...(m.toolCalls?.length ? { toolCalls: m.toolCalls } : {}),
    ...(m.toolCallId !== undefined ? { toolCallId: m.toolCallId } : {}),
    ...(turnId ? { turnId } : {}),
  };
}

/**
 * Appends messages (skipped for Zero Data Retention apps) and usage rows to a session: touch, then the
 * messages and usage rows, then `last_message_at`, then a second touch if the sequence was slow.
 */
export async function appendToSession(
  deps: ActivityDeps,
  input: {
    sessionId: string;
    messages: readonly TurnMessage[];
    usage?: readonly TurnUsage[];
    turnId?: string;
    /**
     * The session and its app as a chat turn holds them (under its lease): not read again. A session
     * removed meanwhile still fails the first touch, whose write is conditional on it.
     */
    known?: { readonly session: Session; readonly app: App };
  },
): Promise<{ messages: Message[]; usage: UsageRow[] }> {
  const known = input.known?.session.id === input.sessionId ? input.known : undefined;
  const session = known?.session ?? (await liveSession(deps, input.sessionId));
  const app = known?.app ?? (await deps.apps.get(session.appId));
  const stamp = deps.clock.nowUs();
  const keep = !(app?.settings.zeroDataRetention ?? false);
  // A chat turn's messages are written under an open turn, hidden until the last touch closes it: the
  // export shows the turn whole or not at all, also after a crash between two of its writes.
  const turnId = input.turnId && keep && input.messages.length ? input.turnId : undefined;
  if (!(await deps.sessions.touch(session.id, stamp, undefined, turnId ? { openTurnId: turnId } : {}))) throw notFound('Session not found');
  const messages = (keep ? input.messages : []).map((m) => messageOf(deps, session.id, m, turnId));
  // Hidden under the open turn until the last touch: written together, each as its own item.
  if (messages.length) await deps.sessions.putMessages(messages);
  const usage: UsageRow[] = [];
  for (const u of input.usage ?? []) {
    const row: UsageRow = {
      ...u,
      id: await deps.usage.nextId(),
      orgId: session.orgId,
      appId: session.appId,
      sessionId: session.id,
      consumerId: session.consumerId,
      createdAtUs: deps.clock.nowUs(),
    };
    await deps.usage.put(row);
    const now = deps.clock.nowUs();
    usage.push(now - row.createdAtUs > (deps.settings.visibilityDelayMs * 1000) / 2 ? await deps.usage.restamp(row, now) : row);
  }
  const lastAt = messages.length ? messages[messages.length - 1]!.createdAtUs : undefined;
  if (lastAt !== undefined) {
    if (!(await deps.sessions.touch(session.id, lastAt, lastAt, turnId ? { openTurnId: null } : {}))) {
      // The session was removed while this turn was being written: its removal may have listed the
      // messages before these were written, so take them back out rather than leave content behind.
      for (const m of messages) await deps.sessions.removeMessage(session.id, m);
      throw notFound('Session not found');
    }
    if (session.consumerId) await deps.consumers.markActive(session.consumerId, lastAt);
  }
  await retouchIfSlow(deps, session.id, stamp);
  return { messages, usage };
}

/** A chat turn's hold on its session while it records: its lease, the turn it opened, and the session as it knows it. */
export interface HeldTurn {
  readonly session: Session;
  /** The version the turn knows the session at (read under its lease, or the one it created). */
  readonly version: number;
  readonly leaseId: string;
  /** The turn opened on the session with the lease (or with the session's creation). */
  readonly turnId: string;
}

/**
 * Records a chat turn under its lease. Its turn has been open on the session since the lease was taken
 * (or the session created): that marker is the first touch, since every message written under it stays
 * hidden until the turn closes. So the messages and usage rows go in one batch, then one write closes
 * the turn, moves the touch clock and `last_message_at` and gives the lease back (`released`). When the
 * session changed meanwhile (a rename, a removal under way), a touch closes it instead and the lease
 * stays with the caller; a session removed meanwhile gets its messages taken back out, and a 404.
 */
export async function recordTurn(
  deps: ActivityDeps,
  held: HeldTurn,
  input: {
    app: App;
    messages: readonly TurnMessage[];
    usage: readonly TurnUsage[];
    /** Runs once the usage rows are written, beside the closing write (the turn's charge). */
    besideClose?: () => Promise<void>;
  },
): Promise<{ messages: Message[]; usage: UsageRow[]; released: boolean }> {
  const { session } = held;
  const keep = !input.app.settings.zeroDataRetention;
  const messages = (keep ? input.messages : []).map((m) => messageOf(deps, session.id, m, held.turnId));
  const rows: UsageRow[] = [];
  for (const u of input.usage) {
    const id = await deps.usage.nextId();
    rows.push({ ...u, id, orgId: session.orgId, appId: session.appId, sessionId: session.id, consumerId: session.consumerId, createdAtUs: deps.clock.nowUs() });
  }
  await deps.sessions.putTurnItems(messages, rows);
  // A usage row lists by its own time: one that committed late comes back above any checkpoint taken meanwhile.
  const usage: UsageRow[] = [];
  for (const row of rows) {
    const now = deps.clock.nowUs();
    usage.push(now - row.createdAtUs > (deps.settings.visibilityDelayMs * 1000) / 2 ? await deps.usage.restamp(row, now) : row);
  }
  const lastAt = messages.length ? messages[messages.length - 1]!.createdAtUs : undefined;
  const stamp = deps.clock.nowUs();
  const close = { session, version: held.version, leaseId: held.leaseId, atUs: stamp, ...(lastAt !== undefined ? { lastMessageAtUs: lastAt } : {}) };
  const closing = async () => {
    const released = await deps.sessions.closeTurn(session.id, close);
    if (!released && !(await deps.sessions.touch(session.id, stamp, lastAt, { openTurnId: null }))) {
      // The session was removed while this turn was being written: its removal may have listed the
      // messages before these were written, so take them back out rather than leave content behind.
      for (const m of messages) await deps.sessions.removeMessage(session.id, m);
      throw notFound('Session not found');
    }
    return released;
  };
  const [released] = await Promise.all([closing(), input.besideClose?.()]);
  if (lastAt !== undefined && session.consumerId) await deps.consumers.markActive(session.consumerId, lastAt);
  await retouchIfSlow(deps, session.id, stamp);
  return { messages, usage, released };
}

/** A historic edit of one message's content. */
export async function editMessage(deps: ActivityDeps, input: { sessionId: string; messageId: string; content: string }): Promise<Message> {
  await liveSession(deps, input.sessionId);
  const existing = (await deps.sessions.listMessages(input.sessionId)).find((m) => m.id === input.messageId);
  if (!existing) throw notFound('Message not found');
  const stamp = deps.clock.nowUs();
  if (!(await deps.sessions.touch(input.sessionId, stamp))) throw notFound('Session not found');
  const edited: Message = { ...existing, content: input.content };
  await deps.sessions.putMessage(edited);
  await retouchIfSlow(deps, input.sessionId, stamp);
  return edited;
}

/** Replaces one stored message with a changed copy of it (same id and creation time), touch first. */
export async function rewriteMessage(deps: ActivityDeps, message: Message): Promise<void> {
  const stamp = deps.clock.nowUs();
  if (!(await deps.sessions.touch(message.sessionId, stamp))) throw notFound('Session not found');
  await deps.sessions.putMessage(message);
  await retouchIfSlow(deps, message.sessionId, stamp);
}

/** Deletes one message; `last_message_at` stays the raw metadata it was. */
export async function deleteMessage(deps: ActivityDeps, input: { sessionId: string; messageId: string }): Promise<void> {
  await liveSession(deps, input.sessionId);
  const existing = (await deps.sessions.listMessages(input.sessionId)).find((m) => m.id === input.messageId);
  if (!existing) throw notFound('Message not found');
  const stamp = deps.clock.nowUs();
  if (!(await deps.sessions.touch(input.sessionId, stamp))) throw notFound('Session not found');
  await deps.sessions.removeMessage(input.sessionId, existing);
  await retouchIfSlow(deps, input.sessionId, stamp);
}

/**
 * A metadata change: the new title lands in the same write as the touch, and a touch that committed
 * more than half the visibility delay after its stamp is followed by a fresh one, as for every sequence.
 */
export async function renameSession(deps: ActivityDeps, input: { sessionId: string; title: string }): Promise<void> {
  const stamp = deps.clock.nowUs();
  if (!(await deps.sessions.touch(input.sessionId, stamp, undefined, { title: input.title }))) throw notFound('Session not found');
  await retouchIfSlow(deps, input.sessionId, stamp);
}
