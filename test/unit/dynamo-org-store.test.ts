/** The org list the per-org jobs walk: every org once, in creation order, page after page. */
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
});
