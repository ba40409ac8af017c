/**
 * A Responses API request as the chat turn it is: its `item_reference`s read from the stored answers
 * they name (of this app only), `previous_response_id` or `conversation` as the session to continue. The
 * files of its `input_image` / `input_file` parts are added later, once the request holds its
 * Idempotency-Key (app/resolve-input-files.ts).
 */
import { badRequest } from '../../kernel/domain/errors';
import type { Message } from '../../conversations/domain/session';
import type { ChatMessageInput, ChatRequest } from '../domain/chat-request';
import { itemIdTarget } from '../domain/response-ids';
import { joinToolCalls } from '../domain/responses-input';
import type { ResponsesRequest } from '../domain/responses-request';
import type { ChatDeps } from './chat-ports';
import { requireConversation } from './manage-conversations';

export async function responseTurnRequest(deps: Pick<ChatDeps, 'sessions'>, appId: string, parsed: ResponsesRequest): Promise<ChatRequest> {
  const transcripts = new Map<string, Promise<Message[] | undefined>>();
  const transcript = (sessionId: string) => {
    if (!transcripts.has(sessionId)) {
      transcripts.set(
        sessionId,
        deps.sessions.get(sessionId).then((s) => (s && s.appId === appId ? deps.sessions.listMessages(sessionId) : undefined)),
      );
    }
    return transcripts.get(sessionId)!;
  };
  const messages: ChatMessageInput[] = [];
  for (const [i, item] of parsed.input.entries()) {
    if (item.kind === 'message') {
      messages.push(item.message);
      continue;
    }
    if (item.kind === 'reasoning') continue;
    // The same answer for an id that is no id of this platform, another app's, or a removed one.
    const missing = badRequest(`input[${i}].id: no output item ${item.id.slice(0, 256)} of this app is stored (an app with Zero Data Retention keeps none)`);
    const target = itemIdTarget(item.id);
    if (!target) throw missing;
    const answer = (await transcript(target.sessionId))?.find((m) => m.id === target.messageId && m.role === 'assistant');
    if (!answer) throw missing;
    if (target.call === undefined) messages.push({ role: 'assistant', content: answer.content });
    else {
      const call = answer.toolCalls?.[target.call];
      if (!call) throw missing;
      messages.push({ role: 'assistant', content: '', toolCalls: [call] });
    }
  }
  const { turn, previousSessionId } = parsed;
  if (previousSessionId !== undefined && turn.chatSessionId !== undefined && turn.chatSessionId !== previousSessionId) {
    throw badRequest('previous_response_id and chatSessionId name different sessions');
  }
  const conversationSessionId = parsed.conversationId !== undefined ? (await requireConversation(deps, appId, parsed.conversationId)).id : undefined;
  if (conversationSessionId !== undefined && turn.chatSessionId !== undefined && turn.chatSessionId !== conversationSessionId) {
    throw badRequest('conversation and chatSessionId name different sessions');
  }
  const chatSessionId = previousSessionId ?? conversationSessionId ?? turn.chatSessionId;
  return {
    ...turn,
    messages: joinToolCalls(messages),
    ...(chatSessionId !== undefined ? { chatSessionId } : {}),
    ...(parsed.instructions !== undefined ? { instructions: parsed.instructions } : {}),
  };
}
