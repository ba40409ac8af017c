/**
 * A deletion whose caller never retries (a crash answered 500, a client gave up) is finished by the
 * deletion sweep: its tombstone stays pending until the removal completes.
 */
import { describe, expect, it } from 'vitest';
import { seedSessions } from '../support/imports';
import { TestClock } from '../support/clock';
import type { TestPlatform } from '../support/platform';
import { injectFault, itemsUnder, orgSessionIds, tombstonesOf, usePlatformAndTable, type PlatformTable } from '../support/store';

describe('deletion sweep', () => {
  let p: TestPlatform;
  let t: PlatformTable;
  const clock = new TestClock();
  usePlatformAndTable({ clock }, (started) => ({ p, t } = started));

  const sweep = () => p.admin('POST', '/jobs/deletion-sweep/runs');

  it('finishes a session delete that crashed right after its tombstone, and only once it has settled', async () => {
    const f = await p.fixture();
    const [sessionId, bystander] = await seedSessions(p, f.appId, [
      { email: null, messages: ['2026-01-01T00:00:01Z', '2026-01-01T00:00:02Z'] },
      { email: null, messages: ['2026-01-01T00:00:01Z'] },
    ]);
    const fault = injectFault(t, { command: 'UpdateItemCommand', match: (i) => String(i.UpdateExpression).includes('deletedAtUs') });
    expect((await p.admin('DELETE', `/sessions/${sessionId}`)).status).toBe(500);
    fault.remove();
    expect(await orgSessionIds(t, f.orgId)).toContain(sessionId);

    // A removal still in flight is left alone: the sweep only takes tombstones older than a minute.
    expect((await sweep()).body.data.result.finished).toBe(0);
    clock.advance(61_000);
    const res = await sweep();
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.result.finished).toBe(1);
    expect(await itemsUnder(t, `SESSION#${sessionId}`)).toEqual([]);
    expect(await orgSessionIds(t, f.orgId)).toEqual([bystander]);
    expect((await tombstonesOf(t, f.orgId)).map((x) => x.resourceId)).toEqual([sessionId]);
    // Nothing is pending any more: a second sweep finds no work.
    expect((await sweep()).body.data.result.finished).toBe(0);
  });

  it('finishes a consumer delete that crashed before its first session was removed', async () => {
    const f = await p.fixture();
    const sessions = await seedSessions(p, f.appId, [
      { email: 'left@example.com', messages: ['2026-01-01T00:00:01Z'] },
      { email: 'left@example.com', messages: ['2026-01-02T00:00:01Z'] },
    ]);
    const consumerId = (await p.deps.sessions.get(sessions[0]!))!.consumerId!;
    // The consumer tombstone is written, then the first session tombstone write fails.
    const fault = injectFault(t, { command: 'PutItemCommand', nth: 2, match: (i) => String((i.Item as { pk?: string } | undefined)?.pk).startsWith('TOMB#') });
    expect((await p.admin('DELETE', `/consumers/${consumerId}`)).status).toBe(500);
    fault.remove();
    expect((await tombstonesOf(t, f.orgId)).map((x) => x.resourceType)).toEqual(['consumer']);

    clock.advance(61_000);
    expect((await sweep()).body.data.result.finished).toBe(1);
    const after = await tombstonesOf(t, f.orgId);
    expect(
      after
        .filter((x) => x.resourceType === 'session')
        .map((x) => x.resourceId)
        .sort(),
    ).toEqual([...sessions].sort());
    expect(after.every((x) => x.cause === 'consumer_deleted')).toBe(true);
    expect(await p.deps.consumers.get(consumerId)).toBeUndefined();
    expect(await orgSessionIds(t, f.orgId)).toEqual([]);
  });

  it('a consumer create that crashed between its email pointer and its item does not block the email', async () => {
    const f = await p.fixture();
    const fault = injectFault(t, { command: 'PutItemCommand', match: (i) => (i.Item as { type?: string } | undefined)?.type === 'consumer' });
    const line = { session: { title: 't', startedAt: '2026-01-01T00:00:00Z' }, consumer: { email: 'blocked@example.com' }, messages: [] };
    expect(
      (
        await p.call('POST', `/admin/v1/apps/${f.appId}/imports`, {
          token: p.adminToken,
          body: JSON.stringify(line),
          headers: { 'Content-Type': 'application/x-ndjson' },
        })
      ).status,
    ).toBe(500);
    fault.remove();
    const retry = await p.call('POST', `/admin/v1/apps/${f.appId}/imports`, {
      token: p.adminToken,
      body: JSON.stringify(line),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    expect(retry.status, retry.text).toBe(201);
    expect((await p.deps.consumers.findByEmail(f.appId, 'blocked@example.com'))?.email).toBe('blocked@example.com');
  });
});
