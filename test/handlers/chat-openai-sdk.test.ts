import OpenAI, { APIError, AuthenticationError, BadRequestError, NotFoundError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLETIONS, ScriptedTools, chatWorld, patchSettings, sseData, type ChatWorld } from '../support/chat';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../support/fake-openai-server';
import { textPdf } from '../support/file-fixtures';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { uploaded } from '../support/uploads';

/** What the platform adds to OpenAI's chunk and completion objects. */
type WithSession = { chatSessionId?: string };

describe('the official openai SDK against the local server', () => {
  let p: TestPlatform;
  let upstream: FakeOpenAiServer;
  let w: ChatWorld;
  let client: OpenAI;
  beforeAll(async () => {
    // The upstream has no reply scripted: an `openai:` app fails inside the model call (after the first byte of a stream).
    upstream = await startFakeOpenAiServer();
    p = await startTestPlatform({ visibilityDelayMs: 0, tools: new ScriptedTools(), openAiBaseUrl: upstream.baseUrl });
    w = await chatWorld(p);
    client = sdk(w.chatKey);
  });
  afterAll(async () => {
    await p.stop();
    await upstream.close();
  });

  const sdk = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${p.baseUrl}/api/v1`, maxRetries: 0 });

  async function streamedText(stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) {
    const chunks: (OpenAI.Chat.Completions.ChatCompletionChunk & WithSession)[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    return { chunks, text: chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('') };
  }

  /** A raw streamed call, for what the SDK does not show (headers, the wire format). */
  function rawStream(token: string, body: Record<string, unknown>) {
    return fetch(`${p.baseUrl}${COMPLETIONS}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ stream: true, ...body }),
    });
  }

  it('asks about an uploaded PDF with `files` in the body, and the export shows the readPDF marker', async () => {
    const pdf = await uploaded(p, w.chatKey, 'terms.pdf', textPdf('Payment is due within 30 days of the invoice date.'));
    const data = await client.chat.completions.create({
      model: w.appNameId,
      messages: [{ role: 'user', content: 'When is payment due?' }],
      // Area B's extension of the OpenAI body, passed through as an extra field.
      ...({ files: [{ fileId: pdf.fileId, fileName: pdf.fileName }] } as object),
    });
    expect(data.choices[0]!.message.content).toContain('terms.pdf: "Payment is due within 30 days of the invoice date.');
    const sessionId = (data as WithSession).chatSessionId!;
    const exported = await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages?include=tool_details`, { token: w.orgKey });
    expect(exported.status, exported.text).toBe(200);
    expect(exported.body.data.messages[1].tools).toEqual([expect.objectContaining({ name: 'readPDF', success: true })]);
  });

  it('parses a plain call without special handling', async () => {
    const { data, response } = await client.chat.completions.create({ model: w.appNameId, messages: [{ role: 'user', content: 'Hello' }] }).withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe(w.appNameId);
    expect(data.choices[0]!.message).toEqual({ role: 'assistant', content: 'Offline reply #1: Hello' });
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(data.usage!.total_tokens).toBe(data.usage!.prompt_tokens + data.usage!.completion_tokens);
    const sessionId = (data as WithSession).chatSessionId!;
    expect(response.headers.get('x-chat-session-id')).toBe(sessionId);

    // Continuing through the SDK: the header, or the extra body field.
    const second = await client.chat.completions.create(
      { model: w.appNameId, messages: [{ role: 'user', content: 'again' }] },
      { headers: { 'X-Chat-Session-ID': sessionId } },
    );
    expect(second.choices[0]!.message.content).toBe('Offline reply #2: again');
    const third = await client.chat.completions.create({
      model: w.appNameId,
      messages: [{ role: 'user', content: 'and again' }],
      chatSessionId: sessionId,
    } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
    expect(third.choices[0]!.message.content).toBe('Offline reply #3: and again');
  });

  it('streams a call the SDK iterates chunk by chunk; the deltas add up to the answer', async () => {
    const stream = await client.chat.completions.create({ model: w.appNameId, messages: [{ role: 'user', content: 'Stream me a reply' }], stream: true });
    const { chunks, text } = await streamedText(stream);
    expect(text).toBe('Offline reply #1: Stream me a reply');
    expect(chunks.length).toBeGreaterThan(3);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === w.appNameId && typeof c.chatSessionId === 'string')).toBe(true);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.slice(0, -1).every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
    expect(chunks.every((c) => c.usage === undefined)).toBe(true);
  });

  it('ends the stream with a usage chunk when stream_options.include_usage is set', async () => {
    const stream = await client.chat.completions.create({
      model: w.appNameId,
      messages: [{ role: 'user', content: 'count me' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const { chunks, text } = await streamedText(stream);
    expect(text).toBe('Offline reply #1: count me');
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toEqual({
      prompt_tokens: 3,
      completion_tokens: 7,
      total_tokens: 10,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(chunks.slice(0, -1).every((c) => c.usage === undefined)).toBe(true);
  });

  it('streams Server-Sent Events of chat.completion.chunk objects carrying chatSessionId, ending with data: [DONE]', async () => {
    const res = await rawStream(w.chatKey, { model: w.appNameId, messages: [{ role: 'user', content: 'wire format' }] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const sessionId = res.headers.get('x-chat-session-id');
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const data = sseData(await res.text());
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d));
    for (const c of chunks) {
      expect(c).toMatchObject({ object: 'chat.completion.chunk', chatSessionId: sessionId, model: w.appNameId });
      expect(Number.isInteger(c.created)).toBe(true);
      expect(c.id).toMatch(/^chatcmpl-/);
    }
    expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe('Offline reply #1: wire format');

    // The streamed turn is recorded like any other: the next call on the session sees it.
    const next = await client.chat.completions.create(
      { model: w.appNameId, messages: [{ role: 'user', content: 'next' }] },
      { headers: { 'X-Chat-Session-ID': sessionId! } },
    );
    expect(next.choices[0]!.message.content).toBe('Offline reply #2: next');
  });

  it('streams a turn that calls a tool, recording the tool marker', async () => {
    const t = await chatWorld(p);
    await patchSettings(p, t.appId, { mcpConnections: [{ name: 'crm', url: 'http://127.0.0.1:9/mcp', headers: {} }] });
    const stream = await sdk(t.chatKey).chat.completions.create({
      model: t.appNameId,
      messages: [{ role: 'user', content: 'use lookup_order {"orderId":"42"}' }],
      stream: true,
    });
    const { chunks, text } = await streamedText(stream);
    expect(text).toBe('Tool result: Order 42: shipped');
    const messages = await p.call('GET', `/api/v1/org/sessions/${chunks[0]!.chatSessionId}/messages?include=tool_details`, { token: t.orgKey });
    expect(messages.body.data.messages[1].tools).toEqual([{ id: 'call_offline_1_lookup_order', name: 'lookup_order', type: 'tool', success: true }]);
  });

  describe('errors before the first byte keep their status in stream mode', () => {
    let capped: ChatWorld;
    beforeAll(async () => {
      capped = await chatWorld(p);
      await patchSettings(p, capped.appId, { monthlyUsageCapUsd: '0' });
    });

    const cases = () => [
      {
        status: 401,
        token: `svc_chat_${'x'.repeat(40)}`,
        body: { model: w.appNameId, messages: [{ role: 'user', content: 'hi' }] },
        type: AuthenticationError,
      },
      { status: 400, token: w.chatKey, body: { model: w.appNameId, messages: [] }, type: BadRequestError },
      { status: 404, token: w.chatKey, body: { model: 'nobody-424242', messages: [{ role: 'user', content: 'hi' }] }, type: NotFoundError },
      { status: 402, token: capped.chatKey, body: { model: capped.appNameId, messages: [{ role: 'user', content: 'hi' }] }, type: APIError },
    ];

    it('answers the status with a JSON { error: string } body, not an event stream', async () => {
      for (const c of cases()) {
        const res = await rawStream(c.token, c.body);
        expect(res.status, JSON.stringify(c.body)).toBe(c.status);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await res.json()).toEqual({ error: expect.any(String) });
      }
    });

    it('surfaces them in the SDK as APIError with the right status, streamed or not', async () => {
      for (const c of cases()) {
        for (const stream of [true, false]) {
          const err = await sdk(c.token)
            .chat.completions.create({ ...(c.body as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming), stream })
            .then(
              () => undefined,
              (e: unknown) => e,
            );
          expect(err, `${c.status} stream=${stream}`).toBeInstanceOf(c.type);
          expect((err as APIError).status).toBe(c.status);
          expect((err as APIError).message).toContain(String(c.status));
        }
      }
    });
  });

  describe('a model failure after the first byte of a stream', () => {
    let broken: ChatWorld;
    beforeAll(async () => {
      broken = await chatWorld(p);
      await patchSettings(p, broken.appId, { model: 'openai:upstream-down' });
    });

    it('is sent as an error event before data: [DONE] (the status is already 200)', async () => {
      const res = await rawStream(broken.chatKey, { model: broken.appNameId, messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).toBe(200);
      const data = sseData(await res.text());
      expect(data.at(-1)).toBe('[DONE]');
      expect(JSON.parse(data.at(-2)!)).toEqual({ error: { message: expect.any(String), type: 'server_error' } });
      expect(JSON.parse(data[0]!).object).toBe('chat.completion.chunk');
      // Nothing of the upstream's answer leaks to the client.
      expect(data.join('\n')).not.toContain('no reply scripted');
    });

    it('makes the SDK throw an APIError while iterating', async () => {
      const stream = await sdk(broken.chatKey).chat.completions.create({ model: broken.appNameId, messages: [{ role: 'user', content: 'hi' }], stream: true });
      await expect(streamedText(stream)).rejects.toBeInstanceOf(APIError);
    });

    it('is a generic 500 { error: string } without streaming', async () => {
      const res = await p.call('POST', COMPLETIONS, { token: broken.chatKey, body: { model: broken.appNameId, messages: [{ role: 'user', content: 'hi' }] } });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Internal server error' });
    });
  });
});
