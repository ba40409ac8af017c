import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
