/**
 * GET /api/v1/models and GET /api/v1/models/{model} over HTTP: a chat key's app as OpenAI's model list
 * and model object, refused as the chat turn refuses, and read by the official `openai` package.
 */
import OpenAI, { AuthenticationError, NotFoundError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chat, chatWorld, expectChatError, secondApp, type ChatWorld } from '../support/chat';
import { TestClock } from '../support/clock';
import { startTestPlatform, type TestPlatform } from '../support/platform';

const MODELS = '/api/v1/models';

describe('GET /api/v1/models', () => {
  // Pinned: the rate-limit window stays the same minute while the test fills it.
  const clock = new TestClock('2026-03-02T10:00:00.000Z', false);
  let p: TestPlatform;
  let w: ChatWorld;
  let created: number;
  beforeAll(async () => {
    p = await startTestPlatform({ clock, visibilityDelayMs: 0 });
    w = await chatWorld(p);
    const app = await p.admin('GET', `/apps/${w.appId}`);
    created = Math.floor(Date.parse(app.body.data.createdAt) / 1000);
  });
  afterAll(() => p.stop());

  const get = (path: string, token?: string) => p.call('GET', path, token !== undefined ? { token } : {});
  const model = () => ({ id: w.appNameId, object: 'model', created, owned_by: 'platform' });

  it("lists the key's app as the one model, and gets it by its appNameId", async () => {
    const list = await get(MODELS, w.chatKey);
    expect(list.status, list.text).toBe(200);
    expect(list.headers.get('content-type')).toMatch(/^application\/json/);
    expect(list.body).toEqual({ object: 'list', data: [model()] });
    expect(created).toBe(Math.floor(clock.nowUs() / 1_000_000));

    const one = await get(`${MODELS}/${w.appNameId}`, w.chatKey);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual(model());
  });

  it("answers another app's appNameId, or any other name, with the chat turn's unknown-model 404", async () => {
    const other = await secondApp(p, w.orgId);
    for (const name of [other.appNameId, 'no-such-app-1', 'x'.repeat(300)]) {
      const res = await get(`${MODELS}/${name}`, w.chatKey);
      const turn = await chat(p, w.chatKey, { model: name, messages: [{ role: 'user', content: 'Hello' }] });
      expectChatError(res, 404);
      expect(res.body).toEqual({ error: `Model not found: ${name.slice(0, 200)}` });
      expect(res.body).toEqual(turn.body);
    }
    // The other app's own key sees only that app.
    expect((await get(MODELS, other.chatKey)).body.data.map((m: { id: string }) => m.id)).toEqual([other.appNameId]);
  });

  it('refuses no key, an org key, a revoked key and the key of a deleted app with 401, as the chat API does', async () => {
    const refused = await chatWorld(p);
    for (const path of [MODELS, `${MODELS}/${refused.appNameId}`]) {
      expectChatError(await get(path), 401);
      expectChatError(await get(path, refused.orgKey), 401);
      expectChatError(await get(path, `${refused.chatKey}x`), 401);
    }
    const revoked = await chatWorld(p);
    expect((await p.admin('DELETE', `/keys/${revoked.chatKeyId}`)).status).toBe(200);
    const deleted = await chatWorld(p);
    expect((await p.admin('DELETE', `/apps/${deleted.appId}`)).status).toBe(202);
    for (const gone of [revoked, deleted]) {
      for (const path of [MODELS, `${MODELS}/${gone.appNameId}`]) {
        const res = await get(path, gone.chatKey);
        expectChatError(res, 401);
        expect(res.body).toEqual((await chat(p, gone.chatKey, { model: gone.appNameId, messages: [{ role: 'user', content: 'Hello' }] })).body);
      }
    }
  });

  it('refuses an org on the free plan as the chat API does', async () => {
    const free = await chatWorld(p, { plan: 'free' });
    expectChatError(await get(MODELS, free.chatKey), 401, /only available on paid plans/i);
  });

  it('records no usage, and counts against the key’s rate limit with its chat turns', async () => {
    const busy = await chatWorld(p);
    for (let i = 0; i < 12; i++) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => get(MODELS, busy.chatKey)));
      expect(batch.map((r) => r.status)).toEqual(Array(10).fill(200));
    }
    const over = await chat(p, busy.chatKey, { model: busy.appNameId, messages: [{ role: 'user', content: 'Hello' }] });
    expectChatError(over, 429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expectChatError(await get(`${MODELS}/${busy.appNameId}`, busy.chatKey), 429);

    const usage = await p.call('GET', '/api/v1/org/usage', { token: busy.orgKey });
    expect(usage.status, usage.text).toBe(200);
    expect(usage.body.data).toEqual([]);
  });

  describe('the official openai SDK', () => {
    const sdk = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${p.baseUrl}/api/v1`, maxRetries: 0 });

    it('lists and retrieves the model', async () => {
      const client = sdk(w.chatKey);
      const listed: OpenAI.Models.Model[] = [];
      for await (const m of client.models.list()) listed.push(m);
      expect(listed).toEqual([model()]);
      expect(await client.models.retrieve(w.appNameId)).toEqual(model());
    });

    it('raises NotFoundError for another name and AuthenticationError for a wrong key', async () => {
      const err = await sdk(w.chatKey)
        .models.retrieve('no-such-app-1')
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotFoundError);
      // The SDK reads the body's `error` member as the error.
      expect((err as NotFoundError).status).toBe(404);
      expect((err as NotFoundError).error).toBe('Model not found: no-such-app-1');
      await expect(sdk(w.orgKey).models.list()).rejects.toBeInstanceOf(AuthenticationError);
    });
  });
});
