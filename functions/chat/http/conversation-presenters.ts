/** The Conversations API's wire shapes (OpenAI's): the conversation, a list of items, a deletion. */
import { microsToMs } from '../../kernel/domain/time';
import type { Conversation } from '../app/manage-conversations';
import type { ConversationItem } from '../domain/conversation-items';
import { conversationId } from '../domain/response-ids';

export const conversationView = (c: Conversation) => ({
  id: conversationId(c.session.id),
  object: 'conversation' as const,
  created_at: Math.floor(microsToMs(c.session.startedAtUs) / 1000),
  metadata: { ...c.metadata },
});

/** Items a request added, all of them on one page. */
export const itemListView = (data: readonly ConversationItem[]) => ({
  object: 'list' as const,
  data,
  first_id: data[0]?.id ?? null,
  last_id: data[data.length - 1]?.id ?? null,
  has_more: false,
});

export const conversationDeletedView = (sessionId: string) => ({ id: conversationId(sessionId), object: 'conversation.deleted' as const, deleted: true });
