/**
 * A conversation's items are its session's messages in the Responses API's item shapes: a user or
 * system message as a message with `input_text`, an assistant's text as a message with `output_text`
 * and each of its function calls as a `function_call` item, a tool result as a `function_call_output`.
 * Item ids name the message they are part of (response-ids.ts), so nothing maps them.
 */
import { badRequest } from '../../kernel/domain/errors';
import type { Message } from '../../conversations/domain/session';
import type { ChatMessageInput } from './chat-request';
import { functionCallOutputItemId, messageItemId } from './response-ids';
import { assistantItems } from './response-object';
import { joinToolCalls, parseItemList } from './responses-input';

/** OpenAI's bound on the items one request may create or add. */
export const MAX_ITEMS_PER_REQUEST = 20;

type TextPart =
  | { readonly type: 'input_text'; readonly text: string }
  | { readonly type: 'output_text'; readonly text: string; readonly annotations: readonly never[]; readonly logprobs: readonly never[] };

export type ConversationItem =
  | {
      readonly type: 'message';
      readonly id: string;
      readonly status: 'completed';
      readonly role: 'user' | 'system' | 'assistant';
      readonly content: readonly TextPart[];
    }
  | {
      readonly type: 'function_call';
      readonly id: string;
      readonly status: 'completed';
      readonly call_id: string;
      readonly name: string;
      readonly arguments: string;
    }
  | { readonly type: 'function_call_output'; readonly id: string; readonly status: 'completed'; readonly call_id: string; readonly output: string };

/** The items of one stored message, in order. */
export function itemsOfMessage(m: Pick<Message, 'id' | 'sessionId' | 'role' | 'content' | 'toolCalls' | 'toolCallId'>): ConversationItem[] {
  const ref = { sessionId: m.sessionId, messageId: m.id };
  if (m.role === 'tool')
    return [{ type: 'function_call_output', id: functionCallOutputItemId(ref), status: 'completed', call_id: m.toolCallId ?? '', output: m.content }];
  if (m.role !== 'assistant')
    return [{ type: 'message', id: messageItemId(ref), status: 'completed', role: m.role, content: [{ type: 'input_text', text: m.content }] }];
  return assistantItems(ref, m.content, m.toolCalls ?? []);
}

export const itemsOf = (messages: readonly Message[]): ConversationItem[] => messages.flatMap(itemsOfMessage);

/**
 * `items` of a create or an add: up to MAX_ITEMS_PER_REQUEST input items (no `item_reference`: an item
 * is added by its content), read as the chat messages they are.
 */
export function parseConversationItems(raw: unknown, required: boolean): ChatMessageInput[] {
  if (raw === undefined || raw === null) {
    if (required) throw badRequest(`items must be an array of 1 to ${MAX_ITEMS_PER_REQUEST} items`);
    return [];
  }
  const items = parseItemList(raw, 'items', MAX_ITEMS_PER_REQUEST);
  if (required && items.length === 0) throw badRequest(`items must be an array of 1 to ${MAX_ITEMS_PER_REQUEST} items`);
  return joinToolCalls(
    items.map((item, i) => {
      if (item.kind !== 'message') throw badRequest(`items[${i}]: item_reference cannot be added to a conversation; send the item itself`);
      return item.message;
    }),
  );
}

/**
 * One page of a conversation's items, OpenAI's list shape: `order` desc (newest first) by default,
 * `after` the id of the item the page starts after (an id not in the conversation is a 400).
 */
export function itemsPage(all: readonly ConversationItem[], q: { readonly after?: string; readonly limit: number; readonly order: 'asc' | 'desc' }) {
  const ordered = q.order === 'asc' ? all : [...all].reverse();
  let start = 0;
  if (q.after !== undefined) {
    const at = ordered.findIndex((i) => i.id === q.after);
    if (at < 0) throw badRequest(`after: no item ${q.after.slice(0, 256)} in this conversation`);
    start = at + 1;
  }
  const data = ordered.slice(start, start + q.limit);
  return {
    object: 'list' as const,
    data,
    first_id: data[0]?.id ?? null,
    last_id: data[data.length - 1]?.id ?? null,
    has_more: start + q.limit < ordered.length,
  };
}
