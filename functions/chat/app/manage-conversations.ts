/**
 * The Conversations API (OpenAI's shape) over the platform's chat sessions: a conversation is a
 * session of the key's app (docs/adr/0049), its items the session's messages. Adding or removing items
 * changes the transcript the way a turn does: under the session's turn lease (docs/adr/0022), touch
 * first, so the export re-reads the transcript; it never calls the model and bills nothing.
 */
import { deleteSession } from '../../conversations/app/delete-resources';
import type { ConversationDeps, ConversationMetadataStore, SessionReader, SessionStore } from '../../conversations/app/conversation-ports';
import type { Message, Session } from '../../conversations/domain/session';
import type { Tombstone } from '../../conversations/domain/tombstone';
import { badRequest, notFound } from '../../kernel/domain/errors';
import { functionToolMarkers, toolResultProblem } from '../domain/client-tools';
import type { ChatMessageInput } from '../domain/chat-request';
import { itemsOf, itemsOfMessage, type ConversationItem } from '../domain/conversation-items';
import { conversationItemTarget, conversationSession } from '../domain/response-ids';
import { acquireTurnLease, SESSION_SOURCE } from './prepare-chat-turn';
import { appendToSession, createSession, deleteMessage, newSession, rewriteMessage, type TurnMessage } from './record-session-activity';

export type ConversationApiDeps = Pick<ConversationDeps, 'apps' | 'consumers' | 'usage' | 'tombstones' | 'files' | 'ids' | 'clock' | 'settings'> & {
  readonly sessions: SessionStore;
  readonly conversationMetadata: ConversationMetadataStore;
};

export interface Conversation {
  readonly session: Session;
  readonly metadata: Readonly<Record<string, string>>;
}

const NOT_FOUND = 'Conversation not found';

/** The session a conversation id names, of this app; anything else (another app's, removed, no id of ours) is the same 404. */
export async function requireConversation(deps: { readonly sessions: Pick<SessionReader, 'get'> }, appId: string, conversationId: string): Promise<Session> {
  const sessionId = conversationSession(conversationId);
  const session = sessionId ? await deps.sessions.get(sessionId) : undefined;
  if (!session || session.appId !== appId) throw notFound(NOT_FOUND);
  return session;
}

/** The messages of `items` with their tool markers, after checking every tool result answers a call before it. */
function turnMessagesOf(history: readonly Message[], items: readonly ChatMessageInput[]): TurnMessage[] {
  const all: Pick<TurnMessage, 'role' | 'toolCalls' | 'toolCallId'>[] = [...history, ...items];
  const problem = toolResultProblem(
    all.map((m) =>
      m.toolCalls?.length
        ? { kind: 'calls', ids: m.toolCalls.map((c) => c.id) }
        : m.role === 'tool'
          ? { kind: 'result', id: m.toolCallId ?? '' }
          : { kind: 'other' },
    ),
  );
  if (problem) throw badRequest(`items: call_id ${problem.id} answers no function_call before it`);
  const nameOf = (id: string) => all.flatMap((m) => m.toolCalls ?? []).find((c) => c.id === id)?.name;
  return items.map((m) => {
    const tools = functionToolMarkers(m, nameOf);
    return tools ? { ...m, tools } : { ...m };
  });
}

/** Creates a session of the app holding `items`, with `metadata` (written first: a crash leaves an item no list reads). */
export async function createConversation(
  deps: ConversationApiDeps,
  input: { appId: string; items: readonly ChatMessageInput[]; metadata: Readonly<Record<string, string>> },
): Promise<Conversation & { readonly items: ConversationItem[] }> {
  const messages = turnMessagesOf([], input.items);
  const app = await deps.apps.get(input.appId);
  const firstUser = app?.settings.zeroDataRetention ? '' : (input.items.find((m) => m.role === 'user')?.content ?? '');
  const session = await newSession(deps, { appId: input.appId, title: firstUser.slice(0, 80), source: SESSION_SOURCE });
  await deps.conversationMetadata.put(session.id, input.metadata);
  await createSession(deps, session);
  const added = messages.length ? await appendToSession(deps, { sessionId: session.id, messages, turnId: deps.ids.uuid() }) : { messages: [] };
  return { session, metadata: input.metadata, items: itemsOf(added.messages) };
}

export async function getConversation(deps: ConversationApiDeps, input: { appId: string; conversationId: string }): Promise<Conversation> {
  const session = await requireConversation(deps, input.appId, input.conversationId);
  return { session, metadata: await deps.conversationMetadata.get(session.id) };
}

/** Replaces the metadata (never exported, so the session's export position does not move). */
export async function updateConversation(
  deps: ConversationApiDeps,
  input: { appId: string; conversationId: string; metadata: Readonly<Record<string, string>> },
): Promise<Conversation> {
  const session = await requireConversation(deps, input.appId, input.conversationId);
  await deps.conversationMetadata.put(session.id, input.metadata);
  return { session, metadata: input.metadata };
}

/** The session's delete, as the console's: tombstone cause `consumer_deleted`, then everything of the session. */
export async function deleteConversation(deps: ConversationApiDeps, input: { appId: string; conversationId: string }): Promise<Tombstone> {
  const session = await requireConversation(deps, input.appId, input.conversationId);
  return deleteSession(deps, { sessionId: session.id, orgId: session.orgId });
}

export async function listConversationItems(deps: ConversationApiDeps, input: { appId: string; conversationId: string }): Promise<ConversationItem[]> {
  const session = await requireConversation(deps, input.appId, input.conversationId);
  return itemsOf(await deps.sessions.listMessages(session.id));
}

/** Runs `change` holding the session's turn lease, after taking out what a crashed turn left open. */
async function underLease<T>(deps: ConversationApiDeps, sessionId: string, change: () => Promise<T>): Promise<T> {
  const { leaseId } = await acquireTurnLease(deps, sessionId);
  try {
    const found = await deps.sessions.lookup(sessionId);
    if (!found || !('session' in found)) throw notFound(NOT_FOUND);
    if (found.openTurnId) await deps.sessions.discardOpenTurn(sessionId, found.openTurnId);
    return await change();
  } finally {
    await deps.sessions.releaseTurnLease(sessionId, leaseId).catch(() => undefined);
  }
}

/** Appends items to the transcript as one turn (shown whole or not at all), under the lease. */
export async function addConversationItems(
  deps: ConversationApiDeps,
  input: { appId: string; conversationId: string; items: readonly ChatMessageInput[] },
): Promise<ConversationItem[]> {
  const session = await requireConversation(deps, input.appId, input.conversationId);
  return underLease(deps, session.id, async () => {
    const messages = turnMessagesOf(await deps.sessions.listMessages(session.id), input.items);
    const added = await appendToSession(deps, { sessionId: session.id, messages, turnId: deps.ids.uuid() });
    return itemsOf(added.messages);
  });
}

async function findItem(deps: ConversationApiDeps, session: Session, itemId: string): Promise<{ message: Message; item: ConversationItem }> {
  const target = conversationItemTarget(itemId);
  const message = target?.sessionId === session.id ? (await deps.sessions.listMessages(session.id)).find((m) => m.id === target.messageId) : undefined;
  const item = message && itemsOfMessage(message).find((i) => i.id === itemId);
  if (!message || !item) throw notFound('Item not found');
  return { message, item };
}

export async function getConversationItem(
  deps: ConversationApiDeps,
  input: { appId: string; conversationId: string; itemId: string },
): Promise<ConversationItem> {
  const session = await requireConversation(deps, input.appId, input.conversationId);
  return (await findItem(deps, session, input.itemId)).item;
}

/**
 * Removes one item: a message's whole message, or one function call of an assistant message (the
 * message stays with what is left; one left with nothing goes). Touch first, under the lease.
 */
export async function deleteConversationItem(
  deps: ConversationApiDeps,
  input: { appId: string; conversationId: string; itemId: string },
): Promise<Conversation> {
  const session = await requireConversation(deps, input.appId, input.conversationId);
  await underLease(deps, session.id, async () => {
    const { message, item } = await findItem(deps, session, input.itemId);
    const calls = message.toolCalls ?? [];
    const rest =
      item.type === 'function_call' ? { content: message.content, toolCalls: calls.filter((c) => c.id !== item.call_id) } : { content: '', toolCalls: calls };
    if (message.role !== 'assistant' || (!rest.content && rest.toolCalls.length === 0)) {
      await deleteMessage(deps, { sessionId: session.id, messageId: message.id });
      return;
    }
    // The export's marker of a removed call goes with it; markers of the platform's own tools stay.
    const tools = message.tools?.filter((t) => item.type !== 'function_call' || t.id !== item.call_id);
    const { toolCalls: _dropped, tools: _markers, ...kept } = message;
    await rewriteMessage(deps, {
      ...kept,
      content: rest.content,
      ...(rest.toolCalls.length ? { toolCalls: rest.toolCalls } : {}),
      ...(tools?.length ? { tools } : {}),
    });
  });
  return { session, metadata: await deps.conversationMetadata.get(session.id) };
}
