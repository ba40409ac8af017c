import { describe, expect, it } from 'vitest';
import { seedSessions } from '../support/imports';
import type { TestPlatform } from '../support/platform';
import { itemsUnder, orgSessionIds, tombstonesOf, usePlatformAndTable, type PlatformTable } from '../support/store';

/** The product's explicit deletes: cause `consumer_deleted`, tombstone first, nothing left behind. */
describe('session and consumer deletion', () => {
  let p: TestPlatform;
  let t: PlatformTable;
  usePlatformAndTable({}, (started) => ({ p, t } = started));

  it('deleting a session writes one `session` tombstone (consumer_deleted) and removes it with its messages', async () => {
    const f = await p.fixture();
    const [doomed, kept] = await seedSessions(p, f.appId, [
      { email: null, messages: ['2026-01-01T00:00:01Z', '2026-01-01T00:00:02Z', '2026-01-01T00:00:03Z'] },
      { email: null, messages: ['2026-01-01T00:00:01Z'] },
    ]);
    const consumerId = (await p.deps.sessions.get(doomed!))!.consumerId!;

    const res = await p.admin('DELETE', `/sessions/${doomed}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.tombstone).toEqual({
      id: expect.any(String),
      resourceType: 'session',
      resourceId: doomed,
      cause: 'consumer_deleted',
      deletedAt: expect.stringMatching(/\.\d{3}Z$/),
    });

    const tombstones = await tombstonesOf(t, f.orgId);
    expect(tombstones).toHaveLength(1);
    expect(tombstones[0]).toMatchObject({ resourceType: 'session', resourceId: doomed, cause: 'consumer_deleted', id: res.body.data.tombstone.id });

    expect(await p.deps.sessions.get(doomed!)).toBeUndefined();
    expect(await itemsUnder(t, `SESSION#${doomed}`)).toEqual([]);
    expect(await orgSessionIds(t, f.orgId)).toEqual([kept]);
    // The consumer itself stays: only its session was deleted.
    expect(await p.deps.consumers.get(consumerId)).toBeDefined();
    expect((await p.deps.sessions.listMessages(kept!)).length).toBe(1);

    // A second delete of the same session is a 404 and writes nothing more.
    expect((await p.admin('DELETE', `/sessions/${doomed}`)).status).toBe(404);
    expect(await tombstonesOf(t, f.orgId)).toHaveLength(1);
  });

  it('deleting a consumer tombstones each of its sessions, then the consumer, all consumer_deleted', async () => {
    const f = await p.fixture();
    const mine = await seedSessions(p, f.appId, [
      { email: 'gone@example.com', messages: ['2026-01-01T00:00:01Z'] },
      { email: 'gone@example.com', messages: ['2026-01-02T00:00:01Z', '2026-01-02T00:00:02Z'] },
      { email: 'gone@example.com' },
    ]);
    const [other] = await seedSessions(p, f.appId, [{ email: 'stays@example.com', messages: ['2026-01-01T00:00:01Z'] }]);
    const consumerId = (await p.deps.sessions.get(mine[0]!))!.consumerId!;
    const otherConsumer = (await p.deps.sessions.get(other!))!.consumerId!;

    const res = await p.admin('DELETE', `/consumers/${consumerId}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.tombstone).toMatchObject({ resourceType: 'consumer', resourceId: consumerId, cause: 'consumer_deleted' });

    const tombstones = await tombstonesOf(t, f.orgId);
    const sessionTombstones = tombstones.filter((x) => x.resourceType === 'session');
    const consumerTombstones = tombstones.filter((x) => x.resourceType === 'consumer');
    expect(sessionTombstones.map((x) => x.resourceId).sort()).toEqual([...mine].sort());
    expect(consumerTombstones.map((x) => x.resourceId)).toEqual([consumerId]);
    expect(tombstones.every((x) => x.cause === 'consumer_deleted')).toBe(true);
    // Tombstone first: the consumer's tombstone is written before anything of the consumer is removed.
    for (const s of sessionTombstones) expect(consumerTombstones[0]!.deletedAtUs).toBeLessThanOrEqual(s.deletedAtUs);
    // Tombstones carry no content or personal data.
    expect(JSON.stringify(tombstones)).not.toContain('gone@example.com');

    for (const id of mine) {
      expect(await p.deps.sessions.get(id)).toBeUndefined();
      expect(await itemsUnder(t, `SESSION#${id}`)).toEqual([]);
    }
    expect(await p.deps.consumers.get(consumerId)).toBeUndefined();
    expect(await p.deps.consumers.findByEmail(f.appId, 'gone@example.com')).toBeUndefined();
    expect(await p.deps.sessions.listByConsumer(consumerId)).toEqual([]);
    expect(await orgSessionIds(t, f.orgId)).toEqual([other]);
    expect(await p.deps.consumers.get(otherConsumer)).toBeDefined();

    // The email is free again: a new import makes a new consumer.
    const [again] = await seedSessions(p, f.appId, [{ email: 'gone@example.com' }]);
    expect((await p.deps.sessions.get(again!))!.consumerId).not.toBe(consumerId);
  });
});
