/**
 * The Conversations API over HTTP against the local platform: a conversation is a chat session of the
 * key's app, its items the session's messages; driven with plain requests (area B's `{error}` bodies)
 * and with the official `openai` package, and seen from area A's export.
 */
import OpenAI, { BadRequestError, NotFoundError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatWorld, expectChatError, secondApp, type ChatWorld } from '../support/chat';
import { expectOpenResponse } from '../support/open-responses-schemas';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const CONVERSATIONS = '/api/v1/conversations';
const CONV_ID = /^conv_[0-9a-f]{32}$/;

const sessionOf = (conversationId: string) => {
  const hex = conversationId.slice('conv_'.length);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

describe('the Conversations API', () => {
  let p: TestPlatform;
  let w: ChatWorld;
  let client: OpenAI;
  beforeAll(async () => {
    p = await startTestPlatform({ visibilityDelayMs: 0 });
    w = await chatWorld(p);
    client = new OpenAI({ apiKey: w.chatKey, baseURL: `${p.baseUrl}/api/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await p.stop();
  });

  const call = (method: string, path: string, body?: unknown, token = w.chatKey) =>
    p.call(method, `${CONVERSATIONS}${path}`, { token, ...(body !== undefined ? { body } : {}) });
  const exported = async (sessionId: string) => {
    const res = await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages`, { token: w.orgKey });
    expect(res.status, res.text).toBe(200);
    return (res.body.data.messages as { role: string; content: string }[]).map((m) => [m.role, m.content]);
  };

  it('creates a conversation holding its items, as a session of the app in the export', async () => {
    const res = await call('POST', '', {
      items: [
        { type: 'message', role: 'user', content: 'Hello' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi there' }] },
      ],
      metadata: { topic: 'demo' },
    });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'id', 'metadata', 'object']);
    expect(res.body).toMatchObject({ object: 'conversation', metadata: { topic: 'demo' } });
    expect(res.body.id).toMatch(CONV_ID);
    const sessionId = sessionOf(res.body.id);
    expect(await exported(sessionId)).toEqual([
      ['user', 'Hello'],
      ['assistant', 'Hi there'],
    ]);
    const sessions = await p.call('GET', '/api/v1/org/sessions?limit=100', { token: w.orgKey });
    const row = (sessions.body.data as Record<string, unknown>[]).find((s) => s.id === sessionId);
    expect(row).toBeDefined();
    // The metadata is the conversation's, never the export's.
    expect(JSON.stringify(row)).not.toContain('demo');

    const got = await call('GET', `/${res.body.id}`);
    expect(got.body).toEqual(res.body);
  });

  it('lists items newest first by default, pages with after and limit, and gets one', async () => {
    const created = await call('POST', '', {
      items: ['one', 'two', 'three', 'four', 'five'].map((text) => ({ type: 'message', role: 'user', content: text })),
    });
    const id = created.body.id as string;
    const page1 = await call('GET', `/${id}/items?limit=2`);
    expect(page1.status, page1.text).toBe(200);
    expect(page1.body.object).toBe('list');
    expect(page1.body.data.map((i: { content: { text: string }[] }) => i.content[0]!.text)).toEqual(['five', 'four']);
    expect(page1.body.has_more).toBe(true);
    expect(page1.body.first_id).toBe(page1.body.data[0].id);
    expect(page1.body.last_id).toBe(page1.body.data[1].id);
    const page2 = await call('GET', `/${id}/items?limit=2&after=${page1.body.last_id}`);
    expect(page2.body.data.map((i: { content: { text: string }[] }) => i.content[0]!.text)).toEqual(['three', 'two']);
    const asc = await call('GET', `/${id}/items?order=asc&limit=100&include=message.output_text.logprobs`);
    expect(asc.body.data.map((i: { content: { text: string }[] }) => i.content[0]!.text)).toEqual(['one', 'two', 'three', 'four', 'five']);
    expect(asc.body.has_more).toBe(false);
    expect(asc.body.data[0]).toEqual({
      type: 'message',
      id: expect.stringMatching(/^msg_[0-9a-f]{64}$/),
      status: 'completed',
      role: 'user',
      content: [{ type: 'input_text', text: 'one' }],
    });

    const one = await call('GET', `/${id}/items/${asc.body.data[2].id}`);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual(asc.body.data[2]);
    expectChatError(await call('GET', `/${id}/items/msg_${'0'.repeat(64)}`), 404, /^Item not found$/);
    expectChatError(await call('GET', `/${id}/items?limit=0`), 400);
    expectChatError(await call('GET', `/${id}/items?limit=101`), 400);
    expectChatError(await call('GET', `/${id}/items?order=up`), 400);
  });

  it('adds items (function calls and outputs too) without calling the model, and deletes one from the transcript', async () => {
    const created = await call('POST', '', {});
    expect(created.status, created.text).toBe(200);
    const id = created.body.id as string;
    const added = await call('POST', `/${id}/items`, {
      items: [
        { type: 'message', role: 'user', content: 'Weather?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'Sunny' },
      ],
    });
    expect(added.status, added.text).toBe(200);
    expect(added.body.data.map((i: { type: string }) => i.type)).toEqual(['message', 'function_call', 'function_call_output']);
    expect(added.body.data[1]).toMatchObject({ id: expect.stringMatching(/^fc_[0-9a-f]{64}_0$/), call_id: 'call_1', name: 'get_weather' });
    expect(added.body.data[2]).toMatchObject({ id: expect.stringMatching(/^fco_[0-9a-f]{64}$/), call_id: 'call_1', output: 'Sunny' });
    expect(added.body).toMatchObject({ object: 'list', first_id: added.body.data[0].id, last_id: added.body.data[2].id, has_more: false });
    // An output that answers no call before it is refused, and nothing is written.
    expectChatError(await call('POST', `/${id}/items`, { items: [{ type: 'function_call_output', call_id: 'nope', output: 'x' }] }), 400, /nope/);
    expectChatError(await call('POST', `/${id}/items`, { items: Array.from({ length: 21 }, () => ({ role: 'user', content: 'x' })) }), 400, /20/);
    expectChatError(await call('POST', `/${id}/items`, { items: [] }), 400);

    const sessionId = sessionOf(id);
    const before = await p.deps.sessions.get(sessionId);
    const del = await call('DELETE', `/${id}/items/${added.body.data[0].id}`);
    expect(del.status, del.text).toBe(200);
    expect(del.body).toMatchObject({ id, object: 'conversation' });
    const list = await call('GET', `/${id}/items?order=asc`);
    expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([added.body.data[1].id, added.body.data[2].id]);
    expect(await exported(sessionId)).toEqual([
      ['assistant', ''],
      ['tool', ''],
    ]);
    // The session's export position moved: a sync reads the transcript again.
    expect((await p.deps.sessions.get(sessionId))!.touchedAtUs).toBeGreaterThan(before!.touchedAtUs);
    expectChatError(await call('DELETE', `/${id}/items/${added.body.data[0].id}`), 404, /^Item not found$/);
  });

  it('adds items one turn at a time: a session whose turn is running answers 409 with Retry-After, having written nothing', async () => {
    const created = await call('POST', '', { items: [{ role: 'user', content: 'busy' }] });
    const id = created.body.id as string;
    const now = p.deps.clock.nowUs();
    expect(await p.deps.sessions.acquireTurnLease(sessionOf(id), 'a-running-turn', now, now + 60_000_000)).toBe(true);
    const res = await call('POST', `/${id}/items`, { items: [{ role: 'user', content: 'while busy' }] });
    expectChatError(res, 409, /Session busy/);
    expect(res.headers.get('retry-after')).toBe('1');
    await p.deps.sessions.releaseTurnLease(sessionOf(id), 'a-running-turn');
    expect((await call('GET', `/${id}/items`)).body.data).toHaveLength(1);
    expect((await call('POST', `/${id}/items`, { items: [{ role: 'user', content: 'now' }] })).status).toBe(200);
  });

  it('updates the metadata, and deletes the conversation as the session delete does', async () => {
    const created = await call('POST', '', { items: [{ role: 'user', content: 'bye soon' }], metadata: { a: '1' } });
    const id = created.body.id as string;
    const updated = await call('POST', `/${id}`, { metadata: { b: '2' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.metadata).toEqual({ b: '2' });
    expect((await call('GET', `/${id}`)).body.metadata).toEqual({ b: '2' });
    expectChatError(await call('POST', `/${id}`, { metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }), 400, /metadata/);

    const deleted = await call('DELETE', `/${id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ id, object: 'conversation.deleted', deleted: true });
    expectChatError(await call('GET', `/${id}`), 404, /^Conversation not found$/);
    expectChatError(await call('GET', `/${id}/items`), 404, /^Conversation not found$/);
    const tombstones = await p.call('GET', '/api/v1/org/tombstones?limit=100', { token: w.orgKey });
    expect(tombstones.status, tombstones.text).toBe(200);
    expect(tombstones.body.data).toContainEqual(expect.objectContaining({ resource_type: 'session', resource_id: sessionOf(id), cause: 'consumer_deleted' }));
  });

  it("answers another app's conversation, a removed one and an id of no conversation with the same 404", async () => {
    const created = await call('POST', '', { items: [{ role: 'user', content: 'mine' }] });
    const other = await secondApp(p, w.orgId, 'Conversations Other');
    for (const path of [`/${created.body.id}`, `/${created.body.id}/items`])
      expectChatError(await call('GET', path, undefined, other.chatKey), 404, /^Conversation not found$/);
    expectChatError(await call('DELETE', `/${created.body.id}`, undefined, other.chatKey), 404, /^Conversation not found$/);
    expectChatError(
      await call('POST', `/${created.body.id}/items`, { items: [{ role: 'user', content: 'x' }] }, other.chatKey),
      404,
      /^Conversation not found$/,
    );
    for (const bad of ['conv_nope', `conv_${'0'.repeat(32)}`, 'resp_x', '..%2F..'])
      expectChatError(await call('GET', `/${bad}`), 404, /^Conversation not found$/);
    expect((await call('GET', `/${created.body.id}`)).status).toBe(200);
  });

  it('continues a conversation from POST /responses: the input and the answer become its items', async () => {
    const created = await call('POST', '', { items: [{ role: 'user', content: 'Remember: blue' }] });
    const id = created.body.id as string;
    const res = await p.call('POST', '/api/v1/responses', { token: w.chatKey, body: { model: w.appNameId, input: 'What colour?', conversation: id } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.conversation).toEqual({ id });
    expect(res.body.chatSessionId).toBe(sessionOf(id));
    expectOpenResponse(res.body);
    const items = await call('GET', `/${id}/items?order=asc`);
    expect(items.body.data.map((i: { role: string; content: { text: string }[] }) => [i.role, i.content[0]!.text])).toEqual([
      ['user', 'Remember: blue'],
      ['user', 'What colour?'],
      ['assistant', res.body.output[0].content[0].text],
    ]);
    // The answer's item id is the response's output item id.
    expect(items.body.data[2].id).toBe(res.body.output[0].id);
    const sessions = await p.call('GET', '/api/v1/org/sessions?limit=100', { token: w.orgKey });
    expect(sessions.body.data.map((s: { id: string }) => s.id)).toContain(sessionOf(id));

    const withObject = await p.call('POST', '/api/v1/responses', { token: w.chatKey, body: { model: w.appNameId, input: 'Again', conversation: { id } } });
    expect(withObject.status, withObject.text).toBe(200);
    expect(withObject.body.conversation).toEqual({ id });
    const plain = await p.call('POST', '/api/v1/responses', { token: w.chatKey, body: { model: w.appNameId, input: 'No conversation' } });
    expect(plain.body.conversation).toBeNull();
  });

  it('refuses conversation with previous_response_id or another chatSessionId, and an unknown conversation', async () => {
    const created = await call('POST', '', {});
    const id = created.body.id as string;
    const first = await p.call('POST', '/api/v1/responses', { token: w.chatKey, body: { model: w.appNameId, input: 'Hi' } });
    const send = (body: Record<string, unknown>) =>
      p.call('POST', '/api/v1/responses', { token: w.chatKey, body: { model: w.appNameId, input: 'x', ...body } });
    expectChatError(await send({ conversation: id, previous_response_id: first.body.id }), 400, /Mutually exclusive parameters/);
    expectChatError(await send({ conversation: id, chatSessionId: first.body.chatSessionId }), 400, /conversation and chatSessionId/);
    expectChatError(await send({ conversation: 'conv_nope' }), 404, /^Conversation not found$/);
    expectChatError(await send({ conversation: { id, extra: 1 } }), 400, /conversation/);
    const other = await secondApp(p, w.orgId, 'Responses Other');
    const foreign = await p.call('POST', '/api/v1/responses', { token: other.chatKey, body: { model: other.appNameId, input: 'x', conversation: id } });
    expectChatError(foreign, 404, /^Conversation not found$/);
  });

  it('works through the openai package: conversations and their items, and responses.create with conversation', async () => {
    const conversation = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'From the SDK' }], metadata: { via: 'sdk' } });
    expect(conversation.id).toMatch(CONV_ID);
    expect(conversation.metadata).toEqual({ via: 'sdk' });
    expect((await client.conversations.retrieve(conversation.id)).id).toBe(conversation.id);
    expect((await client.conversations.update(conversation.id, { metadata: { via: 'sdk2' } })).metadata).toEqual({ via: 'sdk2' });

    const added = await client.conversations.items.create(conversation.id, { items: [{ type: 'message', role: 'user', content: 'Second' }] });
    expect(added.data).toHaveLength(1);
    const response = await client.responses.create({ model: w.appNameId, input: 'Third', conversation: conversation.id });
    expect(response.conversation?.id).toBe(conversation.id);

    const texts: string[] = [];
    for await (const item of client.conversations.items.list(conversation.id, { order: 'asc', limit: 2 })) {
      if (item.type === 'message') texts.push(item.content.map((c) => ('text' in c ? c.text : '')).join(''));
    }
    expect(texts).toEqual(['From the SDK', 'Second', 'Third', response.output_text]);
    const addedId = (added.data[0] as { id: string }).id;
    const second = await client.conversations.items.retrieve(addedId, { conversation_id: conversation.id });
    expect(second).toMatchObject({ type: 'message', role: 'user' });
    const after = await client.conversations.items.delete(addedId, { conversation_id: conversation.id });
    expect(after.id).toBe(conversation.id);
    await expect(client.conversations.items.retrieve(addedId, { conversation_id: conversation.id })).rejects.toBeInstanceOf(NotFoundError);

    const deleted = await client.conversations.delete(conversation.id);
    expect(deleted).toMatchObject({ id: conversation.id, object: 'conversation.deleted', deleted: true });
    await expect(client.conversations.retrieve(conversation.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.responses.create({ model: w.appNameId, input: 'x', conversation: 'conv_x', previous_response_id: response.id })).rejects.toBeInstanceOf(
      BadRequestError,
    );
  });
});
