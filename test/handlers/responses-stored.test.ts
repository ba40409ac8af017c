/**
 * Stored responses over HTTP: `GET /api/v1/responses/{id}` answers a response again, plain or as the
 * events of its stream (from after `starting_after`), and `DELETE` removes it from these routes only,
 * driven by the `openai` package where it has a method. A response belongs to its app; `store: false`,
 * an app with Zero Data Retention, and a deleted session leave nothing to get.
 */
import OpenAI, { NotFoundError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatWorld, patchSettings, type ChatWorld } from '../support/chat';
import { expectOpenResponse, expectOpenResponsesEvent } from '../support/open-responses-schemas';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const RESPONSES = '/api/v1/responses';
type Event = { type: string; sequence_number: number; response?: Record<string, unknown> };

describe('stored responses', () => {
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

  const events = async (res: Response): Promise<Event[]> => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    return (await res.text())
      .split('\n\n')
      .filter((e) => e.startsWith('event: '))
      .map((e) => JSON.parse(e.slice(e.indexOf('data: ') + 6)) as Event);
  };
  const getStream = (id: string, query = '') =>
    fetch(`${p.baseUrl}${RESPONSES}/${id}?stream=true${query}`, { headers: { Authorization: `Bearer ${w.chatKey}` } }).then(events);

  it('answers a response again as it was answered, plain and as the events of its stream', async () => {
    const created = await client.responses.create({ model: w.appNameId, input: 'Keep this', metadata: { run: '1' } });
    const got = await client.responses.retrieve(created.id);
    expect(got).toEqual(created);
    expectOpenResponse(got);
    const withInclude = await client.responses.retrieve(created.id, { include: ['reasoning.encrypted_content', 'message.output_text.logprobs'] });
    expect(withInclude.id).toBe(created.id);

    const all = await getStream(created.id);
    for (const e of all) expectOpenResponsesEvent(e);
    expect(all.map((e) => e.sequence_number)).toEqual(all.map((_, i) => i));
    expect(all.at(-1)).toMatchObject({ type: 'response.completed', response: { id: created.id, output: created.output } });
    // Resumed: the same events from after the one named.
    const resumed = await getStream(created.id, '&starting_after=3');
    expect(resumed).toEqual(all.slice(4));

    // A streamed response is stored once it completed.
    const stream = await client.responses.create({ model: w.appNameId, input: 'Streamed', stream: true });
    let completed: { id: string; output: unknown } | undefined;
    for await (const e of stream) if (e.type === 'response.completed') completed = e.response;
    const stored = await client.responses.retrieve(completed!.id);
    expect(stored.output).toEqual(completed!.output);
    expect(stored.output_text).toBe('Offline reply #1: Streamed');
  });

  it('lists a response’s input items, newest first unless asked otherwise, in cursor pages', async () => {
    const r = await client.responses.create({
      model: w.appNameId,
      input: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'First question' },
        { role: 'assistant', content: 'An answer I was given' },
        { role: 'user', content: 'Second question' },
      ],
    });
    const texts = (items: { type: string; content?: { text: string }[] }[]) => items.map((i) => i.content?.[0]?.text);
    const all = [];
    for await (const item of client.responses.inputItems.list(r.id, { limit: 2 })) all.push(item);
    expect(texts(all as never)).toEqual(['Second question', 'An answer I was given', 'First question', 'Be brief.']);
    const asc = await client.responses.inputItems.list(r.id, { order: 'asc', limit: 3 });
    expect(texts(asc.data as never)).toEqual(['Be brief.', 'First question', 'An answer I was given']);
    expect(asc.has_more).toBe(true);
    // A continued response lists its own input only.
    const next = await client.responses.create({ model: w.appNameId, input: 'Third question', previous_response_id: r.id });
    const own = await client.responses.inputItems.list(next.id);
    expect(own.data).toEqual([expect.objectContaining({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Third question' }] })]);
    const other = await chatWorld(p);
    expect((await p.call('GET', `${RESPONSES}/${r.id}/input_items`, { token: other.chatKey })).status).toBe(404);
    expect((await p.call('GET', `${RESPONSES}/${r.id}/input_items?limit=0`, { token: w.chatKey })).status).toBe(400);
  });

  it('deletes a response from these routes only: its session goes on, and the export still has the turn', async () => {
    const r = await client.responses.create({ model: w.appNameId, input: 'Delete me later' });
    const deleted = await p.call('DELETE', `${RESPONSES}/${r.id}`, { token: w.chatKey });
    expect(deleted).toMatchObject({ status: 200, body: { id: r.id, object: 'response', deleted: true } });
    const again = await p.call('GET', `${RESPONSES}/${r.id}`, { token: w.chatKey });
    expect(again).toMatchObject({ status: 404, body: { error: 'Response not found' } });
    expect((await p.call('DELETE', `${RESPONSES}/${r.id}`, { token: w.chatKey })).status).toBe(404);
    await expect(client.responses.retrieve(r.id)).rejects.toBeInstanceOf(NotFoundError);
    const next = await client.responses.create({ model: w.appNameId, input: 'Still here?', previous_response_id: r.id });
    expect((next as unknown as { chatSessionId: string }).chatSessionId).toBe((r as unknown as { chatSessionId: string }).chatSessionId);
    const messages = await p.call('GET', `/api/v1/org/sessions/${(r as unknown as { chatSessionId: string }).chatSessionId}/messages`, { token: w.orgKey });
    expect(messages.body.data.messages.map((m: { content: string }) => m.content)).toContain('Delete me later');
  });

  it('stores nothing for store: false or an app with Zero Data Retention, and forgets a response whose session was deleted', async () => {
    const unstored = await client.responses.create({ model: w.appNameId, input: 'Not kept', store: false });
    expect((unstored as unknown as { store: boolean }).store).toBe(false);
    expect((await p.call('GET', `${RESPONSES}/${unstored.id}`, { token: w.chatKey })).status).toBe(404);

    const zdr = await chatWorld(p);
    await patchSettings(p, zdr.appId, { zeroDataRetention: true });
    const zdrClient = new OpenAI({ apiKey: zdr.chatKey, baseURL: `${p.baseUrl}/api/v1`, maxRetries: 0 });
    const secret = await zdrClient.responses.create({ model: zdr.appNameId, input: 'Nothing kept' });
    expect((await p.call('GET', `${RESPONSES}/${secret.id}`, { token: zdr.chatKey })).status).toBe(404);

    const gone = await client.responses.create({ model: w.appNameId, input: 'My session goes' });
    const sessionId = (gone as unknown as { chatSessionId: string }).chatSessionId;
    expect((await p.admin('DELETE', `/sessions/${sessionId}`)).status).toBe(200);
    expect((await p.call('GET', `${RESPONSES}/${gone.id}`, { token: w.chatKey })).status).toBe(404);
  });

  it('keeps one app’s responses from another app’s key, and reads its query strictly', async () => {
    const r = await client.responses.create({ model: w.appNameId, input: 'Mine' });
    const other = await chatWorld(p);
    for (const [method, path] of [
      ['GET', `${RESPONSES}/${r.id}`],
      ['DELETE', `${RESPONSES}/${r.id}`],
      ['GET', `${RESPONSES}/resp_nope`],
      ['GET', `${RESPONSES}/resp_${'0'.repeat(64)}`],
    ] as const) {
      const res = await p.call(method, path, { token: other.chatKey });
      expect(res, `${method} ${path}`).toMatchObject({ status: 404, body: { error: 'Response not found' } });
    }
    expect((await client.responses.retrieve(r.id)).id).toBe(r.id);
    for (const [query, error] of [
      ['colour=blue', 'Unknown query parameter: colour'],
      ['stream=yes', 'stream must be true or false'],
      ['stream=true&starting_after=x', 'starting_after must be a sequence number (an integer from -1)'],
      ['include[]=everything', 'include[]: everything is not one of'],
      ['stream=true&stream=false', 'Query parameter stream is given more than once'],
    ] as const) {
      const res = await p.call('GET', `${RESPONSES}/${r.id}?${query}`, { token: w.chatKey });
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toContain(error);
    }
  });
});
