/** Conversation and item ids name what they stand for, stored messages read as Responses items, and items pages. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { itemsOf, itemsPage, parseConversationItems } from '../../functions/chat/domain/conversation-items';
import {
  conversationId,
  conversationItemTarget,
  conversationSession,
  functionCallItemId,
  functionCallOutputItemId,
  itemIdTarget,
  messageItemId,
} from '../../functions/chat/domain/response-ids';
import type { Message } from '../../functions/conversations/domain/session';

describe('conversation ids', () => {
  it('names the session, and nothing else reads as one', () => {
    const sessionId = randomUUID();
    expect(conversationSession(conversationId(sessionId))).toBe(sessionId);
    for (const wrong of ['conv_', `conv_${'0'.repeat(31)}`, `conv_${'A'.repeat(32)}`, `resp_${'0'.repeat(64)}`, `xconv_${'0'.repeat(32)}`, sessionId])
      expect(conversationSession(wrong), wrong).toBeUndefined();
  });

  it('reads item ids as their message and part, the older ids keeping their meaning', () => {
    const ref = { sessionId: randomUUID(), messageId: randomUUID() };
    expect(conversationItemTarget(messageItemId(ref))).toEqual({ ...ref, part: 'text' });
    expect(conversationItemTarget(functionCallItemId(ref, 2))).toEqual({ ...ref, part: 2 });
    expect(conversationItemTarget(functionCallOutputItemId(ref))).toEqual({ ...ref, part: 'output' });
    expect(itemIdTarget(functionCallOutputItemId(ref))).toBeUndefined();
    expect(itemIdTarget(functionCallItemId(ref, 1))).toEqual({ ...ref, call: 1 });
    expect(conversationItemTarget('fco_x')).toBeUndefined();
  });
});

describe('conversation items', () => {
  const sessionId = randomUUID();
  const message = (m: Partial<Message> & Pick<Message, 'role' | 'content'>): Message => ({ id: randomUUID(), sessionId, createdAtUs: 1, ...m });

  it('reads messages as items: text parts by role, each function call and its output', () => {
    const call = message({ role: 'assistant', content: 'Checking', toolCalls: [{ id: 'c1', name: 'f', arguments: '{}' }] });
    const items = itemsOf([message({ role: 'user', content: 'Hi' }), call, message({ role: 'tool', content: 'ok', toolCallId: 'c1' })]);
    expect(items.map((i) => i.type)).toEqual(['message', 'message', 'function_call', 'function_call_output']);
    expect(items[0]).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: 'Hi' }] });
    expect(items[1]).toMatchObject({ role: 'assistant', content: [{ type: 'output_text', text: 'Checking' }] });
    expect(items[2]).toMatchObject({ id: functionCallItemId({ sessionId, messageId: call.id }, 0), call_id: 'c1', name: 'f' });
    expect(itemsOf([message({ role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }] })]).map((i) => i.type)).toEqual([
      'function_call',
    ]);
  });

  it('pages newest first, after an item id, and refuses an id not in the list', () => {
    const items = itemsOf(['a', 'b', 'c'].map((content) => message({ role: 'user', content })));
    const first = itemsPage(items, { limit: 2, order: 'desc' });
    expect(first.data.map((i) => i.id)).toEqual([items[2]!.id, items[1]!.id]);
    expect(first.has_more).toBe(true);
    const next = itemsPage(items, { limit: 2, order: 'desc', after: first.last_id! });
    expect(next).toMatchObject({ data: [items[0]], has_more: false, first_id: items[0]!.id, last_id: items[0]!.id });
    expect(itemsPage([], { limit: 20, order: 'asc' })).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
    expect(() => itemsPage(items, { limit: 2, order: 'asc', after: 'msg_x' })).toThrow(/after/);
  });

  it('reads items of a request as messages, refusing references and more than 20', () => {
    expect(
      parseConversationItems(
        [
          { type: 'message', role: 'developer', content: 'Be kind' },
          { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
        ],
        true,
      ),
    ).toEqual([
      { role: 'system', content: 'Be kind' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'f', arguments: '{}' }] },
    ]);
    expect(() => parseConversationItems([{ type: 'item_reference', id: 'msg_x' }], true)).toThrow(/items\[0\]/);
    expect(() =>
      parseConversationItems(
        Array.from({ length: 21 }, () => ({ role: 'user', content: 'x' })),
        false,
      ),
    ).toThrow(/20/);
    expect(() => parseConversationItems([{ role: 'user', content: 5 }], false)).toThrow(/items\[0\]\.content/);
    expect(parseConversationItems(undefined, false)).toEqual([]);
    expect(() => parseConversationItems([], true)).toThrow(/items/);
  });
});
