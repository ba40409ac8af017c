/**
 * A builder's first hour, over HTTP, end to end: they sign in through the real redirects of the embedded
 * OpenID provider (its own login page), create an app, a chat key and an org key in the console, use
 * the chat key for a chat turn and the org key to export it, then delete the session in the console and
 * find its tombstone, cause `consumer_deleted`, in the export's deletion feed.
 */
import { describe, expect, it } from 'vitest';
import { ENV_DEFAULTS } from '../../functions/kernel/env';
import { COMPLETIONS } from '../support/chat';
import { TestClock } from '../support/clock';
import { signInThroughIssuer } from '../support/console-sessions';
import { type TestPlatform, usePlatform } from '../support/platform';

describe('a builder’s journey through the console', () => {
  let p: TestPlatform;
  const clock = new TestClock(new Date().toISOString());
  usePlatform({ consoleSignIn: { kind: 'embedded', port: 0 }, seed: true, clock }, (x) => {
    p = x;
  });

  it('signs in, makes an app and keys, chats, exports, deletes the session and sees its tombstone', async () => {
    const owner = await signInThroughIssuer(p, 'owner');
    const session = await owner.browser.request(`${p.baseUrl}/console/auth/session`);
    const orgId: string = ((await session.json()) as { orgs: { orgId: string }[] }).orgs[0]!.orgId;
    const org = `/console/v1/orgs/${orgId}`;

    const app = await owner.call('POST', `${org}/apps`, { body: { name: 'Journey bot' } });
    expect(app.status, app.text).toBe(201);
    const chatKey = await owner.call('POST', `${org}/apps/${app.body.data.id}/chat-keys`, { body: { name: 'site' } });
    expect(chatKey.status, chatKey.text).toBe(201);
    const orgKey = await owner.call('POST', `${org}/keys`, { body: { scopes: ['apps:read', 'transcripts:read', 'tombstones:read'], name: 'warehouse' } });
    expect(orgKey.status, orgKey.text).toBe(201);

    const turn = await p.call('POST', COMPLETIONS, {
      token: chatKey.body.data.key,
      body: { model: app.body.data.appNameId, messages: [{ role: 'user', content: 'Hi, I am on a journey' }], user: 'journey@example.com' },
    });
    expect(turn.status, turn.text).toBe(200);
    const sessionId = turn.headers.get('x-chat-session-id')!;
    expect(sessionId).toBeTruthy();

    clock.advance(2 * ENV_DEFAULTS.visibilityDelayMsLocal);
    const apps = await p.call('GET', '/api/v1/org/apps', { token: orgKey.body.data.key });
    expect(apps.body.data.map((a: { id: string }) => a.id)).toContain(app.body.data.id);
    const sessions = await p.call('GET', `/api/v1/org/sessions?app_id=${app.body.data.id}`, { token: orgKey.body.data.key });
    expect(sessions.status, sessions.text).toBe(200);
    expect(sessions.body.data.map((s: { id: string }) => s.id)).toContain(sessionId);

    const deleted = await owner.call('DELETE', `${org}/sessions/${sessionId}`);
    expect(deleted.status, deleted.text).toBeLessThan(300);
    clock.advance(2 * ENV_DEFAULTS.visibilityDelayMsLocal);
    const feed = await p.call('GET', '/api/v1/org/tombstones', { token: orgKey.body.data.key });
    expect(feed.status, feed.text).toBe(200);
    expect(feed.body.data).toContainEqual(expect.objectContaining({ resource_type: 'session', resource_id: sessionId, cause: 'consumer_deleted' }));

    const log = await owner.call('GET', `${org}/audit-log`);
    const actions = log.body.data.map((r: { action: string }) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['consoleAppCreate', 'consoleChatKeyCreate', 'consoleOrgKeyCreate']));
  });
});
