/**
 * The session a chat request names (a turn's `chatSessionId` / `X-Chat-Session-ID`, an upload's
 * `X-Chat-Session-ID`): a session of the caller's app, or one a first turn of that app is still
 * creating (its id comes in that turn's X-Chat-Session-ID before the turn is recorded; docs/adr/0022).
 * Anything else is a 404 that says nothing about other apps.
 */
import { notFound } from '../../platform/domain/errors';
import { isUuid } from '../../platform/domain/ids';
import type { Session } from '../../conversations/domain/session';
import type { ChatDeps } from '../ports/chat-ports';

/** The session, or `undefined` for a session still being created (it has no consumer yet: a chat turn's never has). */
export async function requireChatSessionOfApp(deps: Pick<ChatDeps, 'sessions'>, sessionId: string, appId: string): Promise<Session | undefined> {
  // Session ids are UUIDs: anything else names no session, and never reaches DynamoDB as a key.
  const found = isUuid(sessionId) ? await deps.sessions.lookup(sessionId) : undefined;
  if (found && 'session' in found && found.session.appId === appId) return found.session;
  if (found && 'reservedFor' in found && found.reservedFor === appId) return undefined;
  throw notFound('Chat session not found');
}
