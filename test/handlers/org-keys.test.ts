import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCredential, revokeCredential } from '../../functions/tenancy/app/issue-credential';
import { listCredentials } from '../../functions/tenancy/app/list-credentials';
import { rotateCredential } from '../../functions/tenancy/app/rotate-credential';
import { keyListView, rotatedKeyView } from '../../functions/tenancy/http/key-presenters';
import { chat, chatWorld, turn, type ChatWorld } from '../support/chat';
import { TestClock } from '../support/clock';
import { startTestPlatform, type TestPlatform } from '../support/platform';

/**
 * An org's keys as the console will list and rotate them (its routes come later: the use cases and
 * presenters run on the local platform's deps), after real requests over HTTP: the key list shows
 * who created each key and when a request last used it; a rotated key is refused over HTTP at once.
 */
describe('an org’s keys on the local platform', () => {
  const clock = new TestClock('2026-03-02T10:00:00.000Z', false);
  let p: TestPlatform;
  let w: ChatWorld;
  beforeAll(async () => {
    p = await startTestPlatform({ clock, visibilityDelayMs: 0 });
    w = await chatWorld(p);
  });
  afterAll(() => p.stop());

  const keyList = async (filter: { appId?: string; kind?: 'org' | 'chat' | 'acp' } = {}) =>
    keyListView(await listCredentials(p.deps, { orgId: w.orgId, ...filter }), clock.nowUs());

  it('lists keys the admin API issued with their creator, and no last use before any request', async () => {
    const list = await keyList();
    expect(list.data.map((k) => k.kind)).toEqual(['chat', 'org']);
    for (const k of list.data) {
      expect(k.createdBy).toEqual({ kind: 'operator', id: 'admin', email: null });
      expect(k.lastUsedAt).toBeNull();
      expect(k.revoked).toBe(false);
    }
    expect(JSON.stringify(list)).not.toContain(w.chatKey.slice(13));
    expect(Object.keys(list.data[0]!)).not.toContain('hash');
    expect(list.nextCursor).toBeNull();
  });

  it('lists a key issued without a creator (as before creators were recorded) with createdBy null', async () => {
    const acp = await issueCredential(p.deps, { kind: 'acp', appId: w.appId });
    const list = await keyList({ kind: 'acp' });
    expect(list.data).toEqual([expect.objectContaining({ id: acp.credential.id, createdBy: null, appId: w.appId, scopes: [], state: 'active' })]);
    await revokeCredential(p.deps, { keyId: acp.credential.id, orgId: w.orgId });
    await expect(revokeCredential(p.deps, { keyId: acp.credential.id, orgId: 'org-else' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(issueCredential(p.deps, { kind: 'chat', appId: w.appId, orgId: 'org-else' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('shows lastUsedAt after a chat call, and after an org key’s GET', async () => {
    await turn(p, w, 'Hello');
    const afterChat = await keyList({ kind: 'chat' });
    expect(afterChat.data).toHaveLength(1);
    expect(afterChat.data[0]!.id).toBe(w.chatKeyId);
    expect(afterChat.data[0]!.lastUsedAt).toMatch(/^2026-03-02T10:0\d:\d\d\.\d{3}Z$/);
    expect((await keyList({ kind: 'org' })).data[0]!.lastUsedAt).toBeNull();
    const apps = await p.call('GET', '/api/v1/org/apps', { token: w.orgKey });
    expect(apps.status, apps.text).toBe(200);
    expect((await keyList({ kind: 'org' })).data[0]!.lastUsedAt).not.toBeNull();
  });

  it('rotates a chat key: the new key answers, the old one is refused at once', async () => {
    const rotated = rotatedKeyView(await rotateCredential(p.deps, { keyId: w.chatKeyId, orgId: w.orgId }), clock.nowUs());
    expect(rotated.successor).toMatchObject({ kind: 'chat', appId: w.appId, rotatedFromId: w.chatKeyId, key: expect.stringMatching(/^svc_chat_/) });
    expect(rotated.previous).toMatchObject({ id: w.chatKeyId, revoked: true, state: 'revoked', rotatedToId: rotated.successor.id });
    expect((await chat(p, w.chatKey, { model: w.appNameId, messages: [{ role: 'user', content: 'Hi' }] })).status).toBe(401);
    await turn(p, { ...w, chatKey: rotated.successor.key }, 'Hello again');
    const list = await keyList({ appId: w.appId, kind: 'chat' });
    expect(list.data.map((k) => [k.id, k.state])).toEqual([
      [rotated.successor.id, 'active'],
      [w.chatKeyId, 'revoked'],
    ]);
  });

  it('with a grace period the old org key keeps answering until it ends, then is refused as expired', async () => {
    const before = (await keyList({ kind: 'org' })).data[0]!;
    const rotated = await rotateCredential(p.deps, { keyId: before.id, graceSeconds: 120 });
    expect((await p.call('GET', '/api/v1/org/apps', { token: w.orgKey })).status).toBe(200);
    clock.advance(121_000);
    const refused = await p.call('GET', '/api/v1/org/apps', { token: w.orgKey });
    expect(refused.status, refused.text).toBe(401);
    expect((await p.call('GET', '/api/v1/org/apps', { token: rotated.key })).status).toBe(200);
  });
});
