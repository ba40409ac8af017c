/**
 * Keys and usage through the console, used the way a builder uses them: a developer makes a chat key
 * and an org key, both work against their APIs at once, the list shows who made them and when they were
 * last used (never the secret), a rotation hands over to the new key, a revocation stops a leaked one,
 * and the chat turn shows up in the usage view once the rollup has run.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ENV_DEFAULTS } from '../../functions/kernel/env';
import { COMPLETIONS } from '../support/chat';
import { TestClock } from '../support/clock';
import { demoMember, outsider } from '../support/console-sessions';
import { type TestPlatform, usePlatform } from '../support/platform';

describe('console: keys and usage', () => {
  let p: TestPlatform;
  const clock = new TestClock(new Date().toISOString());
  usePlatform({ consoleSignIn: { kind: 'embedded', port: 0 }, seed: true, clock }, (x) => {
    p = x;
  });
  const org = () => `/console/v1/orgs/${p.demo!.orgId}`;
  const chat = (key: string) =>
    p.call('POST', COMPLETIONS, { token: key, body: { model: p.demo!.appNameId, messages: [{ role: 'user', content: 'Hello from the console test' }] } });

  it('issues keys shown once that work at once; lists them by prefix, creator and last use; rotates and revokes them', async () => {
    const dev = await demoMember(p, 'developer');
    const chatKey = await dev.call('POST', `${org()}/apps/${p.demo!.appId}/chat-keys`, { body: { name: 'web widget' } });
    expect(chatKey.status).toBe(201);
    expect(chatKey.body.data).toMatchObject({
      kind: 'chat',
      name: 'web widget',
      appId: p.demo!.appId,
      state: 'active',
      createdBy: { kind: 'member', email: 'developer@demo.local' },
    });
    const raw: string = chatKey.body.data.key;
    expect(raw.startsWith(chatKey.body.data.prefix)).toBe(true);
    expect((await chat(raw)).status).toBe(200);

    const orgKey = await dev.call('POST', `${org()}/keys`, { body: { scopes: ['apps:read'], name: 'warehouse' } });
    expect(orgKey.status).toBe(201);
    expect((await p.call('GET', '/api/v1/org/apps', { token: orgKey.body.data.key })).status).toBe(200);
    expect((await dev.call('POST', `${org()}/keys`, { body: { scopes: [] } })).status).toBe(400);

    const viewer = await demoMember(p, 'viewer');
    const list = await viewer.call('GET', `${org()}/keys?kind=chat&appId=${p.demo!.appId}`);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(raw);
    const listed = list.body.data.find((k: { id: string }) => k.id === chatKey.body.data.id);
    expect(listed).toMatchObject({ prefix: chatKey.body.data.prefix, lastUsedAt: expect.any(String) });
    expect(listed.key).toBeUndefined();

    const rotated = await dev.call('POST', `${org()}/keys/${chatKey.body.data.id}/rotate`, { body: {} });
    expect(rotated.status).toBe(201);
    expect((await chat(rotated.body.data.successor.key)).status).toBe(200);
    expect((await chat(raw)).status).toBe(401);
    expect((await dev.call('POST', `${org()}/keys/${chatKey.body.data.id}/rotate`, { body: {} })).status).toBe(409);

    const admin = await demoMember(p, 'admin');
    expect((await admin.call('DELETE', `${org()}/keys/${rotated.body.data.successor.id}`)).status).toBe(200);
    expect((await chat(rotated.body.data.successor.key)).status).toBe(401);

    const log = await admin.call('GET', `${org()}/audit-log?resourceType=key`);
    expect(log.body.data.map((r: { action: string }) => r.action)).toEqual(
      expect.arrayContaining(['consoleChatKeyCreate', 'consoleKeyRotate', 'consoleKeyRevoke']),
    );
    expect(JSON.stringify(log.body)).not.toContain(raw);
  });

  it('never reaches another org’s keys or apps', async () => {
    const theirs = await outsider(p, 'key-owner');
    const theirApp = await p.admin('POST', `/orgs/${theirs.orgId}/apps`, { name: 'Theirs' });
    const theirKey = await p.admin('POST', `/apps/${theirApp.body.data.id}/chat-keys`, {});
    const owner = await demoMember(p, 'owner');
    for (const [method, path] of [
      ['DELETE', `${org()}/keys/${theirKey.body.data.id}`],
      ['POST', `${org()}/keys/${theirKey.body.data.id}/rotate`],
      ['POST', `${org()}/apps/${theirApp.body.data.id}/chat-keys`],
      ['POST', `${org()}/apps/${theirApp.body.data.id}/acp-keys`],
      ['DELETE', `${org()}/keys/${randomUUID()}`],
    ] as const) {
      const res = await owner.call(method, path, method === 'POST' ? { body: {} } : {});
      expect(res.status, `${method} ${path} ${res.text}`).toBe(404);
    }
    const list = await owner.call('GET', `${org()}/keys`);
    expect(list.body.data.map((k: { id: string }) => k.id)).not.toContain(theirKey.body.data.id);
  });

  it('shows a chat turn in usage and cost by day, app and model once the rollup has run', async () => {
    expect((await chat(p.demo!.chatKey)).status).toBe(200);
    clock.advance(2 * ENV_DEFAULTS.visibilityDelayMsLocal);
    expect((await p.admin('POST', '/jobs/usage-rollup/runs')).status).toBe(200);
    const viewer = await demoMember(p, 'viewer');
    const today = new Date(clock.nowUs() / 1000).toISOString().slice(0, 10);
    const usage = await viewer.call('GET', `${org()}/usage?from=${today}&to=${today}&appId=${p.demo!.appId}`);
    expect(usage.status, usage.text).toBe(200);
    const { data } = usage.body;
    expect(data.totals.calls).toBeGreaterThanOrEqual(1);
    expect(data.days).toHaveLength(1);
    expect(data.days[0].byApp[0]).toMatchObject({ appId: p.demo!.appId, model: expect.any(String), costUsd: expect.stringMatching(/^\d+\.\d+$/) });
    expect(data.asOf).toEqual(expect.any(String));
    const defaults = await viewer.call('GET', `${org()}/usage`);
    expect(defaults.body.data.days).toHaveLength(30);
    for (const bad of ['from=2026-02-30', 'from=2025-01-01&to=2026-11-28', 'to=nope', 'appId=x', 'group=day']) {
      expect((await viewer.call('GET', `${org()}/usage?${bad}`)).status, bad).toBe(400);
    }
  });
});
