/**
 * Stored responses of the Responses API, as their app's key sees them: a response id names its session
 * and answer, and only a response of the key's app, in a session that still exists, is found. Any other
 * id is the same 404, so a key learns nothing of another app's responses.
 */
import { notFound } from '../../kernel/domain/errors';
import { responseIdRef } from '../domain/response-ids';
import type { Message } from '../../conversations/domain/session';
import type { ChatDeps, StoredResponse } from './chat-ports';

type Deps = Pick<ChatDeps, 'responses' | 'sessions'>;

const NOT_FOUND = 'Response not found';

export async function findStoredResponse(deps: Deps, appId: string, id: string): Promise<StoredResponse> {
  const ref = responseIdRef(id);
  if (!ref) throw notFound(NOT_FOUND);
  const [stored, session] = await Promise.all([deps.responses.get(ref.sessionId, ref.messageId), deps.sessions.get(ref.sessionId)]);
  if (!stored || stored.appId !== appId || !session || session.appId !== appId) throw notFound(NOT_FOUND);
  return stored;
}

/** Removes the response from these routes only: its session, transcript and export stay as they are. */
export async function deleteStoredResponse(deps: Deps, appId: string, id: string): Promise<void> {
  const stored = await findStoredResponse(deps, appId, id);
  if (!(await deps.responses.remove(stored.sessionId, stored.answerId))) throw notFound(NOT_FOUND);
}

/** The messages a response's turn added before its answer: what its request gave as input. */
export async function storedResponseInput(deps: Deps, appId: string, id: string): Promise<Message[]> {
  const stored = await findStoredResponse(deps, appId, id);
  const messages = await deps.sessions.listMessages(stored.sessionId);
  return messages.filter((m) => m.turnId === stored.turnId && m.id !== stored.answerId);
}
