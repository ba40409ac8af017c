import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CryptoIds } from '../../functions/kernel/adapters/crypto-ids';
import { DynamoAppStore } from '../../functions/tenancy/adapters/dynamo-app-store';
import { DynamoCredentialStore } from '../../functions/tenancy/adapters/dynamo-credential-store';
import { DynamoOrgStore } from '../../functions/tenancy/adapters/dynamo-org-store';
import { resolveApiKey } from '../../functions/tenancy/app/admit-request';
import { issueCredential, revokeCredential } from '../../functions/tenancy/app/issue-credential';
import { listCredentials } from '../../functions/tenancy/app/list-credentials';
import { createApp } from '../../functions/tenancy/app/manage-apps';
import { rotateCredential } from '../../functions/tenancy/app/rotate-credential';
import type { ApiKeyRegistry, CredentialStore } from '../../functions/tenancy/app/tenancy-ports';
import type { AuditActor } from '../../functions/tenancy/domain/audit';
import { TestClock } from '../support/clock';
import { startTestTable, type TestTable } from '../support/dynamo';

/**
 * Key rotation on the embedded DynamoDB with the production stores: the successor's attributes, the
 * old key's end (at once or after a grace period), what the gateway is told, and how a rotation that
 * stopped half-way is finished by the next one.
 */
describe('rotateCredential', () => {
  let t: TestTable;
  const clock = new TestClock('2026-11-02T10:00:00Z', false);
  const gateway: string[] = [];
  let failRegister = false;
  const apiKeys: ApiKeyRegistry = {
    register: async (k) => {
      if (failRegister) throw new Error('gateway down');
      gateway.push(`register ${k.id} ${k.keyClass}`);
    },
    unregister: async (k) => void gateway.push(`unregister ${k.id}`),
    forgetAuthorizations: async () => void gateway.push('flush'),
  };
  let credentials: CredentialStore;
  let deps: Parameters<typeof rotateCredential>[0];
  let orgId: string;
  let appId: string;
  const member: AuditActor = { kind: 'member', id: 'user-1', email: 'dev@example.com' };

  const works = async (key: string, keyClass: 'orgKey' | 'chatKey' | 'acpKey' = 'orgKey') =>
    resolveApiKey(deps, { keyClass, authorization: `Bearer ${key}` }).then(
      () => 'valid',
      (err: { code: string }) => err.code,
    );

  beforeAll(async () => {
    t = await startTestTable();
    credentials = new DynamoCredentialStore(t.db, t.table);
    deps = { orgs: new DynamoOrgStore(t.db, t.table), apps: new DynamoAppStore(t.db, t.table), credentials, ids: new CryptoIds(), clock, apiKeys };
    const now = clock.nowUs();
    orgId = 'org-rot';
    await deps.orgs.create({ id: orgId, name: 'Rot', plan: 'paid', createdAtUs: now, updatedAtUs: now });
    appId = (await createApp(deps, { orgId, name: 'Rot App' })).id;
  });
  afterAll(() => t.stop());
  beforeEach(() => {
    gateway.length = 0;
    failRegister = false;
  });

  it('issues a key of the same kind, name, scopes and expiry, revokes the old one at once and removes it from the gateway', async () => {
    const expiresAtUs = clock.nowUs() + 86_400_000_000;
    const old = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read', 'usage:read'], name: 'etl', expiresAtUs });
    gateway.length = 0;
    const rotated = await rotateCredential(deps, { keyId: old.credential.id, createdBy: member });
    expect(rotated.credential).toMatchObject({ kind: 'org', orgId, scopes: ['apps:read', 'usage:read'], name: 'etl', expiresAtUs, createdBy: member });
    expect(rotated.credential.rotatedFromId).toBe(old.credential.id);
    expect(rotated.key).toMatch(/^svc_org_/);
    expect(rotated.previous).toMatchObject({ id: old.credential.id, rotatedToId: rotated.credential.id });
    expect(rotated.previous.revokedAtUs).toBeDefined();
    expect(gateway).toEqual([`register ${rotated.credential.id} orgKey`, `unregister ${old.credential.id}`]);
    expect(await works(rotated.key)).toBe('valid');
    expect(await works(old.key)).toBe('unauthorized');
  });

  it('keeps a chat or ACP key on its app', async () => {
    for (const [kind, keyClass] of [
      ['chat', 'chatKey'],
      ['acp', 'acpKey'],
    ] as const) {
      const old = await issueCredential(deps, { kind, appId });
      const rotated = await rotateCredential(deps, { keyId: old.credential.id });
      expect(rotated.credential).toMatchObject({ kind, appId, orgId, scopes: [] });
      expect(rotated.credential).not.toHaveProperty('expiresAtUs');
      expect(await works(rotated.key, keyClass)).toBe('valid');
      expect(await works(old.key, keyClass)).toBe('unauthorized');
    }
  });

  it('with a grace period, lets the old key work until then and tells the gateway to forget cached grants', async () => {
    const old = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read'] });
    gateway.length = 0;
    const rotated = await rotateCredential(deps, { keyId: old.credential.id, graceSeconds: 300 });
    expect(rotated.previous.revokedAtUs).toBeUndefined();
    expect(rotated.previous.expiresAtUs).toBeGreaterThan(clock.nowUs() + 299_000_000);
    expect(rotated.previous.expiresAtUs).toBeLessThanOrEqual(clock.nowUs() + 300_000_000);
    expect(gateway).toEqual([`register ${rotated.credential.id} orgKey`, 'flush']);
    expect(await works(old.key)).toBe('valid');
    clock.advance(301_000);
    expect(await works(old.key)).toBe('expired');
    expect(await works(rotated.key)).toBe('valid');
  });

  it('never lengthens the old key’s life: an earlier expiry stays', async () => {
    const expiresAtUs = clock.nowUs() + 60_000_000;
    const old = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read'], expiresAtUs });
    const rotated = await rotateCredential(deps, { keyId: old.credential.id, graceSeconds: 3600 });
    expect(rotated.previous.expiresAtUs).toBe(expiresAtUs);
  });

  it('refuses a grace period outside 0..86400 whole seconds, a key of another org, and an unknown key', async () => {
    const old = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read'] });
    for (const graceSeconds of [-1, 86_401, 1.5, Number.NaN]) {
      await expect(rotateCredential(deps, { keyId: old.credential.id, graceSeconds })).rejects.toMatchObject({ code: 'bad_request' });
    }
    await expect(rotateCredential(deps, { keyId: old.credential.id, orgId: 'org-else' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(rotateCredential(deps, { keyId: 'no-such-key' })).rejects.toMatchObject({ code: 'not_found' });
    expect(await works(old.key)).toBe('valid');
  });

  it('refuses a revoked or expired key, and a key rotated already (finishing its gateway step again)', async () => {
    const revoked = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read'] });
    await revokeCredential(deps, { keyId: revoked.credential.id });
    await expect(rotateCredential(deps, { keyId: revoked.credential.id })).rejects.toMatchObject({ code: 'conflict' });
    const expiring = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read'], expiresAtUs: clock.nowUs() + 1_000_000 });
    clock.advance(2_000);
    await expect(rotateCredential(deps, { keyId: expiring.credential.id })).rejects.toMatchObject({ code: 'conflict' });
    const once = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read'] });
    const rotated = await rotateCredential(deps, { keyId: once.credential.id, graceSeconds: 60 });
    gateway.length = 0;
    await expect(rotateCredential(deps, { keyId: once.credential.id })).rejects.toThrow(rotated.credential.id);
    expect(gateway).toEqual(['flush']);
  });

  it('a rotation stopped before its successor was stored leaves the old key working; the retry completes', async () => {
    const old = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read'] });
    failRegister = true;
    await expect(rotateCredential(deps, { keyId: old.credential.id })).rejects.toThrow('gateway down');
    expect(await works(old.key)).toBe('valid');
    failRegister = false;
    const rotated = await rotateCredential(deps, { keyId: old.credential.id });
    expect(await works(rotated.key)).toBe('valid');
    expect(await works(old.key)).toBe('unauthorized');
  });

  it('a rotation stopped after its successor was stored: the retry revokes that successor, whose secret nobody saw', async () => {
    const old = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read'] });
    const stopping: CredentialStore = Object.assign(Object.create(credentials) as CredentialStore, {
      completeRotation: async () => {
        throw new Error('crashed');
      },
    });
    await expect(rotateCredential({ ...deps, credentials: stopping }, { keyId: old.credential.id })).rejects.toThrow('crashed');
    expect(await works(old.key)).toBe('valid');
    const orphan = (await listCredentials(deps, { orgId })).credentials.find((c) => c.rotatedFromId === old.credential.id);
    expect(orphan?.revokedAtUs).toBeUndefined();
    gateway.length = 0;
    const rotated = await rotateCredential(deps, { keyId: old.credential.id });
    expect(gateway).toContain(`unregister ${orphan?.id}`);
    expect((await credentials.getById(orphan!.id))?.revokedAtUs).toBeDefined();
    const successors = (await listCredentials(deps, { orgId })).credentials.filter((c) => c.rotatedFromId === old.credential.id && c.revokedAtUs === undefined);
    expect(successors.map((c) => c.id)).toEqual([rotated.credential.id]);
  });

  it('two rotations at once: one wins, the other answers 409 and leaves no second live successor', async () => {
    const old = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read'] });
    const results = await Promise.allSettled([rotateCredential(deps, { keyId: old.credential.id }), rotateCredential(deps, { keyId: old.credential.id })]);
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won.length).toBeGreaterThanOrEqual(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'conflict' });
    const live = (await listCredentials(deps, { orgId })).credentials.filter((c) => c.rotatedFromId === old.credential.id && c.revokedAtUs === undefined);
    expect(live).toHaveLength(1);
    expect(await works(old.key)).toBe('unauthorized');
  });
});
