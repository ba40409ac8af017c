/**
 * The console's conversation routes over HTTP, as members of the demo org: the sessions list and its
 * filters, a transcript, deleting a session or a consumer (the admin deletion, tombstones in the org
 * key's feed, audit records), the bulk export, and another org's resources answered as missing ones.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { patchSettings, secondApp, turn } from '../support/chat';
import { demoMember, outsider } from '../support/console-sessions';
import { png } from '../support/file-fixtures';
import { uploaded } from '../support/uploads';
import { type TestPlatform, usePlatform } from '../support/platform';

interface Line {
  readonly externalId?: string;
  readonly email?: string;
  readonly messages?: readonly { role: string; content: string; tools?: object[] }[];
}

/** Imports one session per line into an app (the admin import); returns their ids. */
async function importInto(p: TestPlatform, appId: string, lines: readonly Line[]): Promise<string[]> {
  const body = lines
    .map((l) =>
      JSON.stringify({
        session: { title: 'imported', startedAt: '2026-01-01T00:00:00Z', ...(l.externalId ? { externalId: l.externalId } : {}) },
        ...(l.email ? { consumer: { email: l.email } } : {}),
        messages: (l.messages ?? []).map((m, i) => ({ ...m, createdAt: `2026-01-01T00:00:0${i + 1}Z` })),
      }),
    )
    .join('\n');
  const res = await p.call('POST', `/admin/v1/apps/${appId}/imports`, { token: p.adminToken, headers: { 'Content-Type': 'application/x-ndjson' }, body });
  expect(res.status, res.text).toBe(201);
  return res.body.data.sessionIds;
}

const SESSION_FIELDS = [
  'appId',
  'consumerEmail',
  'consumerId',
  'endedAt',
  'externalId',
  'id',
  'lastActivityAt',
  'lastMessageAt',
  'source',
  'startedAt',
  'title',
];

describe('the console API over conversations', () => {
  let p: TestPlatform;
  usePlatform({ consoleSignIn: { kind: 'embedded', port: 0 }, seed: true, visibilityDelayMs: 0 }, (x) => {
    p = x;
  });
  const org = () => `/console/v1/orgs/${p.demo!.orgId}`;
  const demoApp = () => ({ chatKey: p.demo!.chatKey, appNameId: p.demo!.appNameId });
  const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((s) => s.id);

  it('lists a chat turn’s session newest first; a viewer sees the list without titles but not the transcript, a developer reads it', async () => {
    const older = await turn(p, demoApp(), 'An older question');
    const a = await turn(p, demoApp(), 'Where is my parcel?');
    const viewer = await demoMember(p, 'viewer');
    const developer = await demoMember(p, 'developer');

    const listed = await viewer.call('GET', `${org()}/sessions`);
    expect(listed.status, listed.text).toBe(200);
    expect(ids(listed).slice(0, 2)).toEqual([a.chatSessionId, older.chatSessionId]);
    const row = listed.body.data[0];
    expect(Object.keys(row).sort()).toEqual(SESSION_FIELDS);
    expect(row).toMatchObject({ appId: p.demo!.appId, title: null, consumerId: null });
    expect(listed.text).not.toContain('parcel');
    expect(listed.body.nextCursor).toBeNull();

    expect((await developer.call('GET', `${org()}/sessions`)).body.data[0].title).toBe('Where is my parcel?');
    expect(ids(await viewer.call('GET', `${org()}/sessions?appId=${p.demo!.appId}&limit=1`))).toEqual([a.chatSessionId]);

    const transcript = await developer.call('GET', `${org()}/sessions/${a.chatSessionId}`);
    expect(transcript.status, transcript.text).toBe(200);
    expect(transcript.body.data.zdr).toBe(false);
    expect(transcript.body.data.session).toMatchObject({ id: a.chatSessionId, appId: p.demo!.appId, queryParams: [] });
    expect(transcript.body.data.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(transcript.body.data.messages[0]).toMatchObject({ content: 'Where is my parcel?' });
    expect(transcript.body.data.messages[1].content).toBe(a.choices[0]!.message.content);

    const refused = await viewer.call('GET', `${org()}/sessions/${a.chatSessionId}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: { code: 'forbidden', message: 'Your role (viewer) may not do this: transcripts.read' } });
  });

  it('names the files attached to a user message, by name and kind', async () => {
    const file = await uploaded(p, p.demo!.chatKey, 'label.png', png(4, 4));
    const a = await turn(p, demoApp(), 'What does this label say?', { files: [{ fileId: file.fileId, fileName: 'label.png' }] });
    const developer = await demoMember(p, 'developer');
    const t = await developer.call('GET', `${org()}/sessions/${a.chatSessionId}`);
    expect(t.status, t.text).toBe(200);
    expect(t.body.data.messages[0].files).toEqual([{ fileId: file.fileId, fileName: 'label.png', kind: 'image' }]);
    expect(t.body.data.messages[1]).not.toHaveProperty('files');
  });

  it('shows tool markers in order, and no messages for an app under Zero Data Retention', async () => {
    const tools = [{ id: 'call_1', name: 'lookup_order', type: 'tool', success: true }];
    const [withTools] = await importInto(p, p.demo!.appId, [
      {
        messages: [
          { role: 'user', content: 'order 42?' },
          { role: 'assistant', content: 'shipped', tools },
          { role: 'user', content: 'thanks' },
        ],
      },
    ]);
    const developer = await demoMember(p, 'developer');
    const t = await developer.call('GET', `${org()}/sessions/${withTools}`);
    expect(t.body.data.messages.map((m: { content: string }) => m.content)).toEqual(['order 42?', 'shipped', 'thanks']);
    expect(t.body.data.messages[0]).not.toHaveProperty('tools');
    expect(t.body.data.messages[1].tools).toEqual(tools);

    const zdr = await secondApp(p, p.demo!.orgId, 'ZDR App');
    await patchSettings(p, zdr.appId, { zeroDataRetention: true });
    const z = await turn(p, zdr, 'forget me');
    const read = await developer.call('GET', `${org()}/sessions/${z.chatSessionId}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toMatchObject({ zdr: true, messages: [] });
    expect(read.text).not.toContain('forget me');
  });

  it('filters by app, last-activity window, external id and consumer e-mail, and pages with a cursor bound to its filters', async () => {
    const before = new Date().toISOString();
    const other = await secondApp(p, p.demo!.orgId, 'Filter App');
    const [annDemo, bob] = await importInto(p, p.demo!.appId, [
      { email: 'ann@example.com', externalId: `crm:${before}` },
      { email: 'bob@example.com', externalId: `crm:${before}` },
    ]);
    const [annOther] = await importInto(p, other.appId, [{ email: 'Ann@Example.com' }]);
    const viewer = await demoMember(p, 'viewer');
    const list = (query: string) => viewer.call('GET', `${org()}/sessions?${query}`);

    expect(ids(await list(`consumerEmail=ANN%40example.com`)).sort()).toEqual([annDemo, annOther].sort());
    expect(ids(await list(`consumerEmail=ann%40example.com&appId=${other.appId}`))).toEqual([annOther]);
    expect(ids(await list(`externalId=${encodeURIComponent(`crm:${before}`)}`)).sort()).toEqual([annDemo, bob].sort());
    expect(ids(await list(`externalId=${encodeURIComponent(`crm:${before}`)}&consumerEmail=bob%40example.com`))).toEqual([bob]);
    expect(ids(await list(`appId=${other.appId}`))).toEqual([annOther]);
    expect(ids(await list(`consumerEmail=nobody%40example.com`))).toEqual([]);
    expect(ids(await list(`appId=${randomUUID()}`))).toEqual([]);

    // Last activity: the imports are after `before`, so `to=before` leaves them out and `from=before` keeps only them.
    const since = await list(`from=${encodeURIComponent(before)}`);
    expect(ids(since).sort()).toEqual([annDemo, bob, annOther].sort());
    expect(ids(await list(`to=${encodeURIComponent(before)}`))).not.toContain(annDemo);
    expect(ids(await list(`from=${encodeURIComponent(before)}&to=${encodeURIComponent(before)}`))).toEqual([]);

    const first = await list(`consumerEmail=ann%40example.com&limit=1`);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const cursor = encodeURIComponent(first.body.nextCursor);
    const second = await list(`consumerEmail=ann%40example.com&limit=1&cursor=${cursor}`);
    expect([...ids(first), ...ids(second)].sort()).toEqual([annDemo, annOther].sort());
    expect(second.body.nextCursor).toBeNull();
    const pagedAll = await list(`from=${encodeURIComponent(before)}&limit=2`);
    const rest = await list(`from=${encodeURIComponent(before)}&limit=2&cursor=${encodeURIComponent(pagedAll.body.nextCursor)}`);
    expect([...ids(pagedAll), ...ids(rest)]).toEqual(ids(since));

    const moved = await list(`consumerEmail=bob%40example.com&limit=1&cursor=${cursor}`);
    expect(moved.status).toBe(400);
    expect(moved.body.error.code).toBe('bad_request');
    for (const bad of ['limit=0', 'limit=101', 'from=yesterday', 'appId=nope', 'consumerEmail=not-an-address', 'session=1']) {
      expect((await list(bad)).status, bad).toBe(400);
    }
  });

  it('deletes a session and a consumer as the admin routes do: tombstones with cause consumer_deleted in the org key’s feed, audit records', async () => {
    const a = await turn(p, demoApp(), 'Delete me');
    const [kept, other] = await importInto(p, p.demo!.appId, [{ email: 'carol@example.com' }, { email: 'carol@example.com' }]);
    const consumerId = (await p.deps.sessions.get(kept!))!.consumerId!;
    const developer = await demoMember(p, 'developer');
    const admin = await demoMember(p, 'admin');
    const owner = await demoMember(p, 'owner');

    expect((await developer.call('DELETE', `${org()}/sessions/${a.chatSessionId}`)).status).toBe(403);
    const deleted = await admin.call('DELETE', `${org()}/sessions/${a.chatSessionId}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.data.tombstone).toMatchObject({ resourceType: 'session', resourceId: a.chatSessionId, cause: 'consumer_deleted' });
    const gone = await owner.call('GET', `${org()}/sessions/${a.chatSessionId}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: { code: 'not_found', message: 'Session not found' } });
    // As for the admin route: a session removed whole is not found again.
    expect((await admin.call('DELETE', `${org()}/sessions/${a.chatSessionId}`)).status).toBe(404);

    const consumer = await owner.call('DELETE', `${org()}/consumers/${consumerId}`);
    expect(consumer.status, consumer.text).toBe(200);
    expect(consumer.body.data.tombstone).toMatchObject({ resourceType: 'consumer', resourceId: consumerId, cause: 'consumer_deleted' });
    expect(ids(await owner.call('GET', `${org()}/sessions?consumerEmail=carol%40example.com`))).toEqual([]);

    // The org key's deletion feed, once its visibility delay (0 here) has passed.
    const feed = await p.call('GET', '/api/v1/org/tombstones?limit=100', { token: p.demo!.orgKey });
    const byResource = new Map(feed.body.data.map((t: { resource_id: string; cause: string }) => [t.resource_id, t.cause]));
    for (const id of [a.chatSessionId, kept, other, consumerId]) expect(byResource.get(id), id).toBe('consumer_deleted');

    // The admin route's deletion reaches the org's audit log too, though its path names no org.
    const [byOperator] = await importInto(p, p.demo!.appId, [{}]);
    expect((await p.admin('DELETE', `/sessions/${byOperator}`)).status).toBe(200);
    const audit = await owner.call('GET', `${org()}/audit-log?limit=100`);
    const records = audit.body.data.map((r: { action: string; resource: { id: string }; actor: { kind: string } }) => [r.action, r.resource.id, r.actor.kind]);
    expect(records).toContainEqual(['consoleSessionDelete', a.chatSessionId, 'member']);
    expect(records).toContainEqual(['consoleConsumerDelete', consumerId, 'member']);
    expect(records).toContainEqual(['adminSessionDelete', byOperator, 'operator']);
  });

  it('answers another org’s session, consumer and export as missing ones (404), and never lists them', async () => {
    const stranger = await outsider(p, 'conversations-stranger');
    const app = await p.admin('POST', `/orgs/${stranger.orgId}/apps`, { name: 'Foreign App' });
    const [foreign] = await importInto(p, app.body.data.id, [
      { email: 'dan@example.com', externalId: 'crm:foreign', messages: [{ role: 'user', content: 'private' }] },
    ]);
    const foreignConsumer = (await p.deps.sessions.get(foreign!))!.consumerId!;
    const foreignExport = await stranger.call('POST', `/console/v1/orgs/${stranger.orgId}/exports`, { body: { lists: ['apps'] } });
    expect(foreignExport.status, foreignExport.text).toBe(201);
    const owner = await demoMember(p, 'owner');

    const notFound = (message: string) => ({ error: { code: 'not_found', message } });
    expect((await owner.call('GET', `${org()}/sessions/${foreign}`)).body).toEqual(notFound('Session not found'));
    expect((await owner.call('DELETE', `${org()}/sessions/${foreign}`)).body).toEqual(notFound('Session not found'));
    expect((await owner.call('DELETE', `${org()}/consumers/${foreignConsumer}`)).body).toEqual(notFound('Consumer not found'));
    expect((await owner.call('GET', `${org()}/exports/${foreignExport.body.data.id}`)).body).toEqual(notFound('Export not found'));
    for (const query of [`appId=${app.body.data.id}`, 'externalId=crm%3Aforeign', 'consumerEmail=dan%40example.com']) {
      expect(ids(await owner.call('GET', `${org()}/sessions?${query}`)), query).toEqual([]);
    }
    expect(ids(await owner.call('GET', `${org()}/exports`))).not.toContain(foreignExport.body.data.id);
    // Still there for its own org.
    expect((await stranger.call('GET', `/console/v1/orgs/${stranger.orgId}/sessions/${foreign}`)).status).toBe(200);
  });

  it('starts, lists and reads a bulk export with every list, as an org key with every scope would', async () => {
    const owner = await demoMember(p, 'owner');
    expect((await (await demoMember(p, 'developer')).call('POST', `${org()}/exports`, { body: {} })).status).toBe(403);
    expect((await owner.call('POST', `${org()}/exports`, { body: { lists: ['nope'] } })).status).toBe(400);

    const started = await owner.call('POST', `${org()}/exports`, { body: {} });
    expect(started.status, started.text).toBe(201);
    expect(started.body.data).toMatchObject({ status: 'running', lists: ['apps', 'sessions', 'usage', 'tombstones'], files: [] });
    const id = started.body.data.id;

    const listed = await owner.call('GET', `${org()}/exports?limit=1`);
    expect(listed.status, listed.text).toBe(200);
    expect(ids(listed)).toEqual([id]);
    expect(listed.body.data[0].files).toEqual([]);

    let job = (await owner.call('GET', `${org()}/exports/${id}`)).body.data;
    for (let i = 0; i < 100 && job.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await owner.call('GET', `${org()}/exports/${id}`)).body.data;
    }
    expect(job.status).toBe('completed');
    expect(job.files.map((f: { list: string }) => f.list)).toEqual(expect.arrayContaining(['apps', 'sessions', 'usage', 'tombstones']));
    const download = await fetch(job.files[0].url);
    expect(download.status).toBe(200);

    const second = await owner.call('POST', `${org()}/exports`, { body: { lists: ['usage'] } });
    const page1 = await owner.call('GET', `${org()}/exports?limit=1`);
    expect(ids(page1)).toEqual([second.body.data.id]);
    const page2 = await owner.call('GET', `${org()}/exports?limit=1&cursor=${encodeURIComponent(page1.body.nextCursor)}`);
    expect(ids(page2)).toEqual([id]);
    expect((await owner.call('GET', `${org()}/exports?cursor=garbage`)).status).toBe(400);
  });
});
