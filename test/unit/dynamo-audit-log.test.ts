/**
 * The audit log over the production DynamoDB adapter: newest first by keyset, filtered by actor,
 * action and resource type (alone or together) with pages that never skip or repeat a record, one
 * record per id however often it is written, the retention period's TTL on every item, and no secret
 * in a record.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoAuditLog } from '../../functions/tenancy/adapters/dynamo-audit-log';
import { listAuditRecords } from '../../functions/tenancy/app/read-audit-log';
import type { AuditFilter } from '../../functions/tenancy/app/members-ports';
import { AUDIT_RETENTION_DAYS, type AuditRecord, isSecretField, withoutSecrets } from '../../functions/tenancy/domain/audit';
import { outcome } from '../support/domain-error';
import { startTestTable, type TestTable } from '../support/dynamo';
import { membersDeps } from '../support/members';

const T0 = Date.parse('2026-11-01T00:00:00.000Z') * 1000;
const ACTORS = ['usr_a', 'usr_b', 'op#1'];
const ACTIONS = ['key.create', 'key.revoke', 'member.role_change'];

/** 60 records over three actors and three actions; some share a timestamp, so the id breaks ties. */
const RECORDS: AuditRecord[] = Array.from({ length: 60 }, (_, i) => ({
  id: `rec-${String(i).padStart(3, '0')}`,
  orgId: 'org-audit',
  at: T0 + Math.floor(i / 3) * 1000,
  actor: ACTORS[i % 3] === 'op#1' ? { kind: 'operator', id: 'op#1' } : { kind: 'member', id: ACTORS[i % 3]!, email: `${ACTORS[i % 3]}@example.com` },
  action: ACTIONS[Math.floor(i / 2) % 3]!,
  resource: { type: ACTIONS[Math.floor(i / 2) % 3]!.split('.')[0]!, id: `res-${i}` },
  ip: '198.51.100.1',
  userAgent: 'vitest',
}));

const newestFirst = (a: AuditRecord, b: AuditRecord) => b.at - a.at || (a.id < b.id ? 1 : -1);

describe('DynamoAuditLog', () => {
  let t: TestTable;
  let log: DynamoAuditLog;
  beforeAll(async () => {
    t = await startTestTable();
    log = new DynamoAuditLog(t.db, t.table);
    for (const r of RECORDS) await log.append(r);
    await log.append(RECORDS[7]!);
    await log.append({ ...RECORDS[0]!, id: 'other-org', orgId: 'org-other' });
  });
  afterAll(() => t.stop());

  async function everyPage(filter: AuditFilter, limit: number): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await log.list('org-audit', filter, limit, cursor);
      expect(page.records.length).toBeLessThanOrEqual(limit);
      ids.push(...page.records.map((r) => r.id));
      cursor = page.cursor;
      pages++;
    } while (cursor);
    return { ids, pages };
  }

  it('pages every filter newest first, never skipping or repeating a record', async () => {
    const filters: AuditFilter[] = [
      {},
      { actorId: 'usr_a' },
      { actorId: 'op#1' },
      { action: 'key.revoke' },
      { resourceType: 'member' },
      { actorId: 'usr_b', action: 'key.create' },
      { action: 'key.create', resourceType: 'key' },
      { actorId: 'op', action: 'key.create' },
    ];
    for (const filter of filters) {
      const expected = RECORDS.filter(
        (r) =>
          (filter.actorId === undefined || r.actor.id === filter.actorId) &&
          (filter.action === undefined || r.action === filter.action) &&
          (filter.resourceType === undefined || r.resource.type === filter.resourceType),
      )
        .sort(newestFirst)
        .map((r) => r.id);
      for (const limit of [1, 7, 100]) {
        const { ids, pages } = await everyPage(filter, limit);
        expect(ids, JSON.stringify({ filter, limit })).toEqual(expected);
        expect(pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
      }
    }
  });

  it('keeps one record per id, each item with the retention TTL, and its fields as written', async () => {
    const items = await t.db.send(
      new QueryCommand({ TableName: t.table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'AUDIT#org-audit' } }),
    );
    const ofSeven = (items.Items ?? []).filter((i) => i.id === 'rec-007');
    expect(ofSeven).toHaveLength(4);
    for (const item of ofSeven) expect(item.expiresAt).toBe(Math.ceil(RECORDS[7]!.at / 1e6) + AUDIT_RETENTION_DAYS * 86_400);
    const [latest] = (await log.list('org-audit', { actorId: 'op#1' }, 1)).records;
    expect(latest).toEqual(RECORDS.filter((r) => r.actor.id === 'op#1').sort(newestFirst)[0]);
  });

  it('refuses a cursor it did not make', async () => {
    for (const cursor of ['nope', Buffer.from('[1]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')])
      expect(await outcome(log.list('org-audit', {}, 5, cursor))).toBe('bad_request');
  });

  it('shows the log to owners and admins of the org only', async () => {
    const deps = membersDeps(t);
    const member = (userKey: string, role: 'admin' | 'developer') =>
      deps.members.put({ orgId: 'org-audit', userKey, email: `${userKey}@e.com`, role, joinedAtUs: 1 });
    await member('usr_adm', 'admin');
    await member('usr_dev', 'developer');
    const list = (userKey: string, limit?: number) =>
      outcome(listAuditRecords(deps, { orgId: 'org-audit', by: { kind: 'member', userKey }, ...(limit !== undefined ? { limit } : {}) }));
    expect(await list('usr_adm')).toBe('ok');
    expect(await list('usr_dev')).toBe('forbidden');
    expect(await list('usr_stranger')).toBe('not_found');
    expect(await list('usr_adm', 0)).toBe('bad_request');
    expect((await listAuditRecords(deps, { orgId: 'org-audit', by: { kind: 'operator', id: 'ops' }, limit: 3 })).records).toHaveLength(3);
  });
});

describe('secrets in audit records', () => {
  it('strips every secret field at any depth and keeps the rest', () => {
    const before = {
      id: 'k1',
      name: 'prod',
      displayPrefix: 'svc_org_abcd',
      hash: 'h',
      tokenHash: 'th',
      secretHash: 'sh',
      sealedSecret: 's',
      key: 'svc_org_xyz',
      nested: { client_secret: 'c', accessToken: 'a', refresh_token: 'r', password: 'p', Authorization: 'Bearer x', scopes: ['apps:read'] },
      list: [{ apiKey: 'k', role: 'admin' }],
    };
    expect(withoutSecrets(before)).toEqual({
      id: 'k1',
      name: 'prod',
      displayPrefix: 'svc_org_abcd',
      nested: { scopes: ['apps:read'] },
      list: [{ role: 'admin' }],
    });
    for (const safe of ['role', 'email', 'userKey', 'keyId', 'orgId', 'expiresAtUs']) expect(isSecretField(safe), safe).toBe(false);
  });
});
