import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CryptoIds } from '../../functions/kernel/adapters/crypto-ids';
import { DynamoAppStore } from '../../functions/tenancy/adapters/dynamo-app-store';
import { DynamoOrgStore } from '../../functions/tenancy/adapters/dynamo-org-store';
import { createApp } from '../../functions/tenancy/app/manage-apps';
import { APP_NAME_ID } from '../../functions/tenancy/domain/app';
import { TestClock } from '../support/clock';
import { startTestTable, type TestTable } from '../support/dynamo';

describe('DynamoAppStore', () => {
  let t: TestTable;
  let deps: Parameters<typeof createApp>[0];
  beforeAll(async () => {
    t = await startTestTable();
    deps = {
      orgs: new DynamoOrgStore(t.db, t.table),
      apps: new DynamoAppStore(t.db, t.table),
      ids: new CryptoIds(),
      clock: new TestClock('2026-11-01T00:00:00Z'),
    };
    const now = deps.clock.nowUs();
    await deps.orgs.create({ id: 'org-a', name: 'A', plan: 'paid', createdAtUs: now, updatedAtUs: now });
  });
  afterAll(() => t.stop());

  it('gives 20 apps created concurrently with the same name unique `<slug>-<number>` ids', async () => {
    const apps = await Promise.all(Array.from({ length: 20 }, () => createApp(deps, { orgId: 'org-a', name: 'Support Bot' })));
    const nameIds = apps.map((a) => a.appNameId);
    expect(new Set(nameIds).size).toBe(20);
    for (const id of nameIds) {
      const m = APP_NAME_ID.exec(id);
      expect(m?.[1], id).toBe('support-bot');
    }
    for (const app of apps) expect((await deps.apps.getByNameId(app.appNameId))?.id).toBe(app.id);
    expect(await deps.apps.listByOrg('org-a')).toHaveLength(20);
  });

  it('lists newest first and drops a deleted app at once, resolving its appNameId no more', async () => {
    const older = await createApp(deps, { orgId: 'org-a', name: 'Older' });
    const newer = await createApp(deps, { orgId: 'org-a', name: 'Newer' });
    const listed = (await deps.apps.listByOrg('org-a')).map((a) => a.id);
    expect(listed.indexOf(newer.id)).toBeLessThan(listed.indexOf(older.id));
    expect(listed[0]).toBe(newer.id);
    await deps.apps.markDeleted(newer.id, deps.clock.nowUs());
    expect((await deps.apps.listByOrg('org-a')).map((a) => a.id)).not.toContain(newer.id);
    expect(await deps.apps.getByNameId(newer.appNameId)).toBeUndefined();
    expect((await deps.apps.listPendingDeletion(100)).map((a) => a.id)).toContain(newer.id);
    await deps.apps.completeDeletion(newer.id);
    expect((await deps.apps.listPendingDeletion(100)).map((a) => a.id)).not.toContain(newer.id);
  });
});
