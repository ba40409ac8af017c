/**
 * Stored responses of the Responses API, as their app's key sees them: a response id names its session
 * and answer, and only a response of the key's app, in a session that still exists, is found. Any other
 * id is the same 404, so a key learns nothing of another app's responses.
 */
import { badRequest, notFound } from '../../kernel/domain/errors';
import type { ResponseStatus } from '../domain/response-object';
import { responseIdRef } from '../domain/response-ids';
import type { Message } from '../../conversations/domain/session';
import type { ChatDeps, StoredResponse } from './chat-ports';

type Deps = Pick<ChatDeps, 'responses' | 'sessions'>;

const NOT_FOUND = 'Response not found';

export async function findStoredResponse(deps: Deps, appId: string, id: string): Promise<StoredResponse> {
  const ref = responseIdRef(id);
  if (!ref) throw notFound(NOT_FOUND);
  const [stored, session] = await Promise.all([deps.responses.get(ref.sessionId, ref.messageId), deps.sessions.get(ref.sessionId)]);
  // A response whose turn was recorded lives as long as its session; a background one that has not run yet has none to check.
  const sessionGone = stored?.turnId !== null && (!session || session.appId !== appId);
  if (!stored || stored.appId !== appId || sessionGone) throw notFound(NOT_FOUND);
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

/** A response in one of these statuses has finished: nothing changes it any more. */
const TERMINAL: readonly ResponseStatus[] = ['completed', 'incomplete', 'failed', 'cancelled'];
export const isTerminal = (s: ResponseStatus) => TERMINAL.includes(s);

/** `POST /responses/{id}/cancel`: a background response that has not finished is cancelled; one that has is answered as it is. */
export async function cancelBackgroundResponse(deps: Deps, appId: string, id: string): Promise<Readonly<Record<string, unknown>>> {
  const stored = await findStoredResponse(deps, appId, id);
  if (stored.body.background !== true) throw badRequest('Only a background response can be cancelled');
  if (isTerminal(stored.status)) return stored.body;
  const body = { ...stored.body, status: 'cancelled' };
  if (await deps.responses.transition(stored.sessionId, stored.answerId, ['queued', 'in_progress'], { status: 'cancelled', body, dropJob: true })) return body;
  return (await findStoredResponse(deps, appId, id)).body;
}
