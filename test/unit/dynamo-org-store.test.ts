/** The org list the per-org jobs walk: every org once, in creation order, page after page. */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoOrgStore } from '../../functions/tenancy/adapters/dynamo-org-store';
import { startTestTable, type TestTable } from '../support/dynamo';

const T0 = Date.parse('2026-11-01T00:00:00.000Z') * 1000;

describe('DynamoOrgStore.list', () => {
  let t: TestTable;
  let orgs: DynamoOrgStore;
  beforeAll(async () => {
    t = await startTestTable();
    orgs = new DynamoOrgStore(t.db, t.table);
  });
  afterAll(() => t.stop());

  it('is empty when there is no org', async () => {
    expect(await orgs.list(10)).toEqual({ orgs: [] });
  });

  it('pages through every org once, by creation time then id, and reads back the same org as get', async () => {
    // Two orgs share each creation time: the id breaks the tie.
    const created = Array.from({ length: 23 }, (_, i) => ({
      id: `org-${String(22 - i).padStart(2, '0')}`,
      name: `Org ${i}`,
      plan: 'free' as const,
      createdAtUs: T0 + Math.floor(i / 2) * 1000,
      updatedAtUs: T0 + Math.floor(i / 2) * 1000,
    }));
    for (const org of [...created].reverse()) await orgs.create(org);
    const seen = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await orgs.list(5, after);
      expect(page.orgs.length).toBeLessThanOrEqual(5);
      seen.push(...page.orgs);
      after = page.next;
      pages++;
    } while (after !== undefined);
    const expected = [...created].sort((a, b) => a.createdAtUs - b.createdAtUs || (a.id < b.id ? -1 : 1));
    expect(seen).toEqual(expected);
    expect(pages).toBeGreaterThanOrEqual(5);
    expect(await orgs.get('org-07')).toEqual(created.find((o) => o.id === 'org-07'));
  });

  it('puts orgs written before the list existed on it, a few pages per call, then stops scanning', async () => {
    const older = Array.from({ length: 7 }, (_, i) => ({
      id: `old-${i}`,
      name: `Old ${i}`,
      plan: 'free' as const,
      createdAtUs: T0 - (i + 1) * 1_000_000,
      updatedAtUs: T0,
    }));
    // As the store wrote them before: no list entry.
    for (const org of older) await t.db.send(new PutCommand({ TableName: t.table, Item: { pk: `ORG#${org.id}`, sk: 'ORG', type: 'org', ...org } }));
    const listed = async () => {
      const ids: string[] = [];
      let next: string | undefined;
      do {
        const page = await orgs.list(100, next);
        ids.push(...page.orgs.map((o) => o.id));
        next = page.next;
      } while (next);
      return ids;
    };
    expect((await listed()).filter((id) => id.startsWith('old-'))).toEqual([]);
    let calls = 0;
    while (!(await orgs.completeListing(1))) calls++;
    expect(calls).toBeLessThan(10);
    expect((await listed()).filter((id) => id.startsWith('old-'))).toEqual(older.map((o) => o.id).reverse());
    expect(await orgs.completeListing(1)).toBe(true);
  });
});
