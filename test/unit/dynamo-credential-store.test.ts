import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeIdKey } from '../../functions/kernel/adapters/dynamo-batch';
import { DynamoCredentialStore } from '../../functions/tenancy/adapters/dynamo-credential-store';
import { hashCredential, type StoredCredential } from '../../functions/tenancy/domain/credentials';
import { startTestTable, type TestTable } from '../support/dynamo';

const T0 = Date.parse('2026-11-01T00:00:00.000Z') * 1000;

describe('DynamoCredentialStore', () => {
  let t: TestTable;
  let store: DynamoCredentialStore;
  beforeAll(async () => {
    t = await startTestTable();
    store = new DynamoCredentialStore(t.db, t.table);
  });
  afterAll(() => t.stop());

  const cred = (id: string): StoredCredential => ({
    id,
    kind: 'org',
    hash: hashCredential(`svc_org_${id}`),
    orgId: 'org-c',
    scopes: ['apps:read'],
    displayPrefix: 'svc_org_abcd',
    createdAtUs: T0,
  });

  it('finds a credential by hash and by id, and never stores the raw key', async () => {
    await store.create(cred('k-find'));
    expect(await store.findByHash(hashCredential('svc_org_k-find'))).toEqual(cred('k-find'));
    expect(await store.getById('k-find')).toEqual(cred('k-find'));
    expect(await store.findByHash(hashCredential('svc_org_other'))).toBeUndefined();
    expect(await store.getById('nope')).toBeUndefined();
  });

  it('revokes idempotently: a second revocation keeps the first time', async () => {
    await store.create(cred('k-rev'));
    const first = await store.revoke('k-rev', T0 + 1_000);
    expect(first?.revokedAtUs).toBe(T0 + 1_000);
    const second = await store.revoke('k-rev', T0 + 9_000);
    expect(second?.revokedAtUs).toBe(T0 + 1_000);
    expect((await store.findByHash(cred('k-rev').hash))?.revokedAtUs).toBe(T0 + 1_000);
  });

  it('keeps one revocation time when revocations race', async () => {
    await store.create(cred('k-race'));
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.revoke('k-race', T0 + 100 + i)));
    const stored = (await store.getById('k-race'))?.revokedAtUs;
    expect(stored).toBeDefined();
    for (const r of results) expect(r?.revokedAtUs).toBe(stored);
  });

  it('answers undefined for an unknown id', async () => {
    expect(await store.revoke('no-such-key', T0)).toBeUndefined();
  });

  it('refuses a second credential with the same id or hash', async () => {
    await store.create(cred('k-dup'));
    await expect(store.create(cred('k-dup'))).rejects.toThrow();
  });

  describe('the org key list', () => {
    const listed = (id: string, orgId: string, createdAtUs: number, extra: Partial<StoredCredential> = {}): StoredCredential => ({
      ...cred(id),
      orgId,
      createdAtUs,
      ...extra,
    });

    it('lists every key of the org, newest first, and nothing of another org', async () => {
      await store.create(listed('l-1', 'org-l', T0 + 1));
      await store.create(listed('l-2', 'org-l', T0 + 2, { kind: 'chat', appId: 'app-a', scopes: [] }));
      await store.create(listed('l-3', 'org-l', T0 + 3, { kind: 'acp', appId: 'app-b', scopes: [] }));
      await store.create(listed('l-other', 'org-other', T0 + 4));
      await store.revoke('l-1', T0 + 10);
      const page = await store.listByOrg('org-l', {}, 10);
      expect(page.credentials.map((c) => c.id)).toEqual(['l-3', 'l-2', 'l-1']);
      expect(page.credentials[2]?.revokedAtUs).toBe(T0 + 10);
      expect(page.cursor).toBeUndefined();
    });

    it('filters by app and by kind', async () => {
      expect((await store.listByOrg('org-l', { appId: 'app-a' }, 10)).credentials.map((c) => c.id)).toEqual(['l-2']);
      expect((await store.listByOrg('org-l', { kind: 'acp' }, 10)).credentials.map((c) => c.id)).toEqual(['l-3']);
      expect((await store.listByOrg('org-l', { kind: 'acp', appId: 'app-a' }, 10)).credentials).toEqual([]);
    });

    it('pages by keyset: each cursor continues after the last key shown, the same time broken by id', async () => {
      for (const id of ['p-a', 'p-b', 'p-c', 'p-d', 'p-e']) await store.create(listed(id, 'org-p', T0 + (id === 'p-e' ? 9 : 5)));
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.listByOrg('org-p', {}, 2, cursor);
        expect(page.credentials.length).toBeLessThanOrEqual(2);
        seen.push(...page.credentials.map((c) => c.id));
        cursor = page.cursor;
      } while (cursor);
      expect(seen).toEqual(['p-e', 'p-d', 'p-c', 'p-b', 'p-a']);
      const filtered = await store.listByOrg('org-p', { kind: 'chat' }, 2);
      expect(filtered).toEqual({ credentials: [] });
    });

    it('refuses a cursor it did not make', async () => {
      await expect(store.listByOrg('org-p', {}, 2, 'nonsense')).rejects.toMatchObject({ code: 'bad_request' });
    });

    it('leaves out a key whose creation stopped before its hash item', async () => {
      const half = listed('half', 'org-half', T0);
      await t.db.send(
        new PutCommand({
          TableName: t.table,
          Item: { pk: 'CREDID#half', sk: 'CREDID', type: 'credential-id', hash: half.hash, gsi1pk: 'ORGCREDS#org-half', gsi1sk: timeIdKey(T0, 'half') },
        }),
      );
      expect((await store.listByOrg('org-half', {}, 10)).credentials).toEqual([]);
    });

    it('keeps who created a key', async () => {
      await store.create(listed('by-1', 'org-by', T0, { createdBy: { kind: 'member', id: 'user-1', email: 'a@example.com' } }));
      expect((await store.getById('by-1'))?.createdBy).toEqual({ kind: 'member', id: 'user-1', email: 'a@example.com' });
    });
  });

  describe('last use', () => {
    const MINUTE = 60_000_000;

    it('writes a use when none is recorded or the recorded one is a minute old, and shows it in the list', async () => {
      await store.create({ ...cred('u-1'), orgId: 'org-u' });
      expect(await store.touchLastUsed('u-1', T0, MINUTE)).toBe(true);
      expect(await store.touchLastUsed('u-1', T0 + MINUTE - 1, MINUTE)).toBe(false);
      expect((await store.listByOrg('org-u', {}, 10)).credentials[0]?.lastUsedAtUs).toBe(T0);
      expect(await store.touchLastUsed('u-1', T0 + MINUTE + 1, MINUTE)).toBe(true);
      expect((await store.listByOrg('org-u', {}, 10)).credentials[0]?.lastUsedAtUs).toBe(T0 + MINUTE + 1);
    });

    it('writes nothing for an unknown key', async () => {
      expect(await store.touchLastUsed('u-none', T0, MINUTE)).toBe(false);
      expect(await store.getById('u-none')).toBeUndefined();
    });
  });

  describe('rotation records', () => {
    it('completes only the pending rotation, once, and reports the successor a newer rotation displaced', async () => {
      await store.create(cred('r-1'));
      expect(await store.beginRotation('r-1', 'succ-a')).toEqual({});
      expect(await store.beginRotation('r-1', 'succ-b')).toEqual({ displaced: 'succ-a' });
      expect(await store.completeRotation('r-1', 'succ-a', { revokedAtUs: T0 + 5 })).toBeUndefined();
      const done = await store.completeRotation('r-1', 'succ-b', { revokedAtUs: T0 + 6 });
      expect(done).toMatchObject({ id: 'r-1', rotatedToId: 'succ-b', revokedAtUs: T0 + 6 });
      const stored = await t.db.send(new GetCommand({ TableName: t.table, Key: { pk: `CRED#${cred('r-1').hash}`, sk: 'CRED' } }));
      expect(stored.Item).not.toHaveProperty('pendingSuccessorId');
      expect(await store.beginRotation('r-1', 'succ-c')).toBeUndefined();
      expect(await store.completeRotation('r-1', 'succ-b', { revokedAtUs: T0 + 7 })).toBeUndefined();
    });

    it('moves the expiry of a key rotated with a grace period, and refuses a revoked key', async () => {
      await store.create(cred('r-2'));
      await store.beginRotation('r-2', 'succ-d');
      expect(await store.completeRotation('r-2', 'succ-d', { expiresAtUs: T0 + 99 })).toMatchObject({ expiresAtUs: T0 + 99, rotatedToId: 'succ-d' });
      expect((await store.getById('r-2'))?.revokedAtUs).toBeUndefined();
      await store.create(cred('r-3'));
      await store.revoke('r-3', T0);
      expect(await store.beginRotation('r-3', 'succ-e')).toBeUndefined();
      expect(await store.beginRotation('r-none', 'succ-f')).toBeUndefined();
    });
  });
});
