/**
 * Bulk snapshot exports (docs/adr/0031) over HTTP with the exports queue driven by hand: the local
 * queue runners are off, so each test receives the worker's messages from the local SQS queue and
 * hands them to the worker module (createHandler of functions/export/workers/export-worker.handler.ts)
 * as SQS events, choosing which job runs when. Removals and changes during a job, poison bodies, a
 * crashed chunk, the files against the list endpoints (a ZDR app and a normal one), and the download
 * links' bytes.
 */
import { randomUUID } from 'node:crypto';
import { get as httpGet } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Logger } from '@aws-lambda-powertools/logger';
import { ChangeMessageVisibilityCommand, DeleteMessageCommand, GetQueueUrlCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appendToSession, startSession, type TurnMessage } from '../../functions/chat/app/record-session-activity';
import { CHUNK_ROWS, STALLED_AFTER_US, type ExportChunkMessage } from '../../functions/export/domain/export-job';
import { createHandler } from '../../functions/export/workers/export-worker.handler';
import type { QueueHandler } from '../../functions/kernel/workers/queue-kit';
import { pageThrough, pinnedPlatform, putSession, turnUsage } from '../support/export-api';
import { localResources } from '../support/lambda-bundle';
import type { Fixture, TestPlatform } from '../support/platform';

const EXPORTS = '/api/v1/org/exports';
const SESSIONS_WITH_TOOLS = '/api/v1/org/sessions?include=messages,tool_details';

interface JobBody {
  id: string;
  status: string;
  lists: string[];
  created_at: string;
  updated_after: string;
  completed_at: string | null;
  files: { list: string; url: string; rows: number; bytes: number }[];
  progress: { list: string; files: number; done: boolean }[];
  urls_expire_at: string | null;
  error: string | null;
}

type Row = Record<string, any> & { id: string };

const logger = new Logger({ serviceName: 'org-exports-faults', logLevel: 'SILENT' });
const errors = vi.spyOn(logger, 'error');

describe('bulk snapshot exports, the worker driven by hand', () => {
  let p: TestPlatform;
  const driver = pinnedPlatform('2026-12-01T09:00:00.000Z', { visibilityDelayMs: 0, queueRunners: false, logger }, (started) => (p = started));
  let sqs: SQSClient;
  let queueUrl: string;
  let worker: QueueHandler;

  beforeAll(async () => {
    const { awsEnv } = await localResources(p);
    sqs = new SQSClient({
      region: awsEnv.AWS_REGION,
      endpoint: awsEnv.AWS_ENDPOINT_URL_SQS,
      credentials: { accessKeyId: awsEnv.AWS_ACCESS_KEY_ID!, secretAccessKey: awsEnv.AWS_SECRET_ACCESS_KEY! },
    });
    queueUrl = (await sqs.send(new GetQueueUrlCommand({ QueueName: 'exports' }))).QueueUrl!;
    worker = createHandler(p.deps);
  });
  afterAll(() => sqs?.destroy());

  const context = () => ({ awsRequestId: randomUUID(), functionName: 'export-worker', getRemainingTimeInMillis: () => 300_000 }) as Context;

  /** An SQS record as the event source mapping hands it over. */
  const record = (body: string, opts: { messageId?: string; receiveCount?: number } = {}): SQSRecord => ({
    messageId: opts.messageId ?? randomUUID(),
    receiptHandle: randomUUID(),
    body,
    attributes: {
      ApproximateReceiveCount: String(opts.receiveCount ?? 1),
      SentTimestamp: String(Date.now()),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:exports',
    awsRegion: 'local',
  });
  const invoke = (records: SQSRecord[], handler: QueueHandler = worker) => handler({ Records: records } satisfies SQSEvent, context());
  const fromQueue = (m: Message): SQSRecord => ({
    ...record(m.Body ?? '', { messageId: m.MessageId! }),
    receiptHandle: m.ReceiptHandle!,
    attributes: m.Attributes as SQSRecord['attributes'],
  });

  /**
   * Receives the exports queue's messages and hands those `only` accepts to the worker one at a time
   * (what they send joins the queue and is handled in turn), deleting each that succeeds; the others
   * are put back, visible at once, when the queue has nothing more for this call.
   */
  async function runQueue(only: (m: ExportChunkMessage) => boolean = () => true): Promise<ExportChunkMessage[]> {
    const held: Message[] = [];
    const handled: ExportChunkMessage[] = [];
    for (let round = 0; round < 500; round++) {
      const res = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, AttributeNames: ['All'] }));
      const messages = res.Messages ?? [];
      if (messages.length === 0) break;
      for (const m of messages) {
        const body = JSON.parse(m.Body!) as ExportChunkMessage;
        if (!only(body)) {
          held.push(m);
          continue;
        }
        const out = await invoke([fromQueue(m)]);
        expect(out.batchItemFailures, JSON.stringify(body)).toEqual([]);
        await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
        handled.push(body);
      }
    }
    for (const m of held) await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: 0 }));
    return handled;
  }
  const ofJob = (id: string) => (m: ExportChunkMessage) => m.jobId === id;

  const create = async (token: string, body: unknown = {}): Promise<JobBody> => {
    const res = await p.call('POST', EXPORTS, { token, body });
    expect(res.status, res.text).toBe(202);
    return res.body.data as JobBody;
  };
  const read = async (token: string, id: string): Promise<JobBody> => {
    const res = await p.call('GET', `${EXPORTS}/${id}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data as JobBody;
  };
  /** The job as its poll shows it once its messages are handled: completed. */
  const finished = async (token: string, id: string): Promise<JobBody> => {
    await runQueue(ofJob(id));
    const job = await read(token, id);
    expect(job.status).toBe('completed');
    expect(job.progress.every((x) => x.done)).toBe(true);
    return job;
  };

  /** A file downloaded through its link: the bytes as served, and the rows its gzip holds. */
  const download = async (file: JobBody['files'][number]) => {
    const res = await fetch(file.url);
    expect(res.status).toBe(200);
    // A gzip file, not a gzip-encoded answer: no client unpacks it on its own.
    expect(res.headers.get('content-encoding')).toBeNull();
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(file.bytes);
    expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const lines = gunzipSync(bytes)
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '');
    expect(lines).toHaveLength(file.rows);
    return { bytes, lines, contentType: res.headers.get('content-type') };
  };
  const rowsOf = async (job: JobBody, list: string): Promise<Row[]> => {
    const out: Row[] = [];
    for (const f of job.files.filter((x) => x.list === list)) out.push(...(await download(f)).lines.map((l) => JSON.parse(l) as Row));
    return out;
  };
  const listed = async (token: string, path: string): Promise<Row[]> => (await pageThrough(p, path, token, { limit: 100 })).flatMap((pg) => pg.data as Row[]);

  /** A session of `appId` with `turns` appends, a millisecond apart. */
  const sessionWith = async (appId: string, title: string, turns: readonly (readonly TurnMessage[])[] = [[{ role: 'user', content: `hi from ${title}` }]]) => {
    driver.advance(1);
    const s = await startSession(p.deps, { appId, title });
    for (const t of turns) {
      driver.advance(1);
      await appendToSession(p.deps, { sessionId: s.id, messages: t, usage: [turnUsage(1)] });
    }
    return s;
  };

  it('a session removed after the watermark is in the snapshot only if removed after its chunk was read; its tombstone is above the watermark', async () => {
    const f = await p.fixture();
    const removed = await sessionWith(f.appId, 'removed');
    const kept = await sessionWith(f.appId, 'kept');
    const before = await listed(f.orgKey, SESSIONS_WITH_TOOLS);
    expect(before.map((r) => r.id)).toEqual([kept.id, removed.id]);

    driver.advance(5);
    const early = await create(f.orgKey, { lists: ['sessions', 'tombstones'] });
    driver.advance(5);
    const late = await create(f.orgKey, { lists: ['sessions', 'tombstones'] });
    expect(early.status).toBe('running');
    expect(late.updated_after > early.updated_after).toBe(true);

    // The early job reads its chunk before the removal, the late one after it.
    driver.advance(5);
    expect((await runQueue(ofJob(early.id))).map((m) => m.list).sort()).toEqual(['sessions', 'tombstones']);
    driver.advance(5);
    const del = await p.admin('DELETE', `/sessions/${removed.id}`);
    expect(del.status, del.text).toBe(200);
    driver.advance(5);
    const earlyDone = await finished(f.orgKey, early.id);
    const lateDone = await finished(f.orgKey, late.id);

    expect(await rowsOf(earlyDone, 'sessions')).toEqual(before);
    expect(await rowsOf(lateDone, 'sessions')).toEqual(before.filter((r) => r.id === kept.id));
    // Neither snapshot holds the tombstone: it is above both watermarks, where the incremental pass reads it.
    expect(await rowsOf(earlyDone, 'tombstones')).toEqual([]);
    expect(await rowsOf(lateDone, 'tombstones')).toEqual([]);
    const tombstones = await listed(f.orgKey, '/api/v1/org/tombstones');
    expect(tombstones).toEqual([expect.objectContaining({ resource_type: 'session', resource_id: removed.id, cause: 'consumer_deleted' })]);
    expect(tombstones[0]!.deleted_at > lateDone.updated_after).toBe(true);
    expect(tombstones[0]!.deleted_at > earlyDone.updated_after).toBe(true);
  });

  it('a session changed after the job started is absent from the snapshot and in GET /sessions?updated_after=<updated_after>', async () => {
    const f = await p.fixture();
    const changed = await sessionWith(f.appId, 'changed');
    const still = await sessionWith(f.appId, 'still');
    driver.advance(5);
    const job = await create(f.orgKey);
    expect(job.lists).toEqual(['apps', 'sessions', 'usage', 'tombstones']);
    driver.advance(5);
    // A new turn on one session (touch first: it moves above the watermark), with its usage.
    await appendToSession(p.deps, { sessionId: changed.id, messages: [{ role: 'user', content: 'later' }], usage: [turnUsage(2)] });
    driver.advance(5);
    const done = await finished(f.orgKey, job.id);
    expect(done.updated_after).toBe(job.updated_after);

    const snapshot = await rowsOf(done, 'sessions');
    expect(snapshot.map((r) => r.id)).toEqual([still.id]);
    const incremental = await listed(f.orgKey, `${SESSIONS_WITH_TOOLS}&updated_after=${encodeURIComponent(done.updated_after)}`);
    expect(incremental.map((r) => r.id)).toEqual([changed.id]);
    expect(incremental[0]!.messages.map((m: { content: string }) => m.content)).toEqual(['hi from changed', 'later']);
    // Snapshot then incremental (upsert by id) is the org as it is now.
    const now = await listed(f.orgKey, SESSIONS_WITH_TOOLS);
    const merged = new Map<string, Row>([...snapshot, ...incremental].map((r) => [r.id, r]));
    expect([...merged.values()].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual([...now].sort((a, b) => (a.id < b.id ? -1 : 1)));

    // The usage row of the later turn: not in the snapshot, in GET /usage?since=<updated_after>.
    const usage = await rowsOf(done, 'usage');
    const since = await listed(f.orgKey, `/api/v1/org/usage?since=${encodeURIComponent(done.updated_after)}`);
    expect(since).toHaveLength(1);
    expect(usage.map((u) => u.id)).not.toContain(since[0]!.id);
    expect(usage).toHaveLength(2);
  });

  it('a poison body on the exports queue is a batch item failure of that record alone, logged as poison', async () => {
    const f = await p.fixture();
    await sessionWith(f.appId, 'one');
    const job = await create(f.orgKey, { lists: ['sessions'] });
    errors.mockClear();
    const poison = [
      record('{"jobId":'),
      record('not json at all'),
      record(JSON.stringify({ jobId: 'not-a-uuid', list: 'sessions', chunk: 0 })),
      record(JSON.stringify({ jobId: job.id, list: 'messages', chunk: 0 })),
      record(JSON.stringify({ jobId: job.id, list: 'sessions', chunk: -1 })),
      record(JSON.stringify({ jobId: job.id, list: 'sessions', chunk: 0.5 })),
      record(JSON.stringify({ jobId: job.id, list: 'sessions' })),
      record('[]'),
      record(''),
    ];
    const valid = record(JSON.stringify({ jobId: job.id, list: 'sessions', chunk: 0 }));
    const out = await invoke([poison[0]!, valid, ...poison.slice(1)]);
    expect(out.batchItemFailures).toEqual(poison.map((r) => ({ itemIdentifier: r.messageId })));
    const lines = errors.mock.calls.map(([, extra]) => extra as Record<string, unknown>);
    expect(lines).toEqual(poison.map((r) => ({ messageId: r.messageId, consumer: 'export-chunk', poison: true, reason: expect.any(String) })));
    // Reasons never quote the body.
    expect(JSON.stringify(lines)).not.toContain('not json at all');
    // The valid record beside them did its chunk.
    const after = await read(f.orgKey, job.id);
    expect(after.status).toBe('completed');
    expect(after.files.map((x) => x.rows)).toEqual([1]);
    // The queue's own copy of the message is a harmless duplicate.
    await runQueue(ofJob(job.id));
    expect((await read(f.orgKey, job.id)).files).toHaveLength(1);
  });

  it('a chunk whose job write fails is a batch item failure (not poison); its redelivery completes the job', async () => {
    const f = await p.fixture();
    await sessionWith(f.appId, 'a');
    await sessionWith(f.appId, 'b');
    const job = await create(f.orgKey, { lists: ['sessions'] });
    let failures = 1;
    const written: string[] = [];
    const crashing = createHandler({
      ...p.deps,
      exportJobs: {
        create: (j, at) => p.deps.exportJobs.create(j, at),
        get: (id) => p.deps.exportJobs.get(id),
        replace: (next, v) => {
          if (failures-- > 0) return Promise.reject(new Error('the table is unavailable'));
          return p.deps.exportJobs.replace(next, v);
        },
      },
      exportObjects: {
        putNdjson: (key, lines) => {
          written.push(key);
          return p.deps.exportObjects.putNdjson(key, lines);
        },
        downloadUrl: (key, seconds) => p.deps.exportObjects.downloadUrl(key, seconds),
      },
    });
    errors.mockClear();
    const message = record(JSON.stringify({ jobId: job.id, list: 'sessions', chunk: 0 }));
    expect(await invoke([message], crashing)).toEqual({ batchItemFailures: [{ itemIdentifier: message.messageId }] });
    expect(errors.mock.calls.map(([, extra]) => (extra as { poison?: boolean }).poison)).toEqual([undefined]);
    expect((await read(f.orgKey, job.id)).status).toBe('running');
    // The object was written, the job not advanced.
    expect(written).toEqual([expect.stringMatching(new RegExp(`^exports/${f.orgId}/${job.id}/sessions-00000-[0-9a-f]{8}\\.ndjson\\.gz$`))]);
    const firstBytes = await p.deps.objects.get(written[0]!);
    expect(firstBytes).toBeDefined();
    expect((await p.deps.exportJobs.get(job.id))!.files).toEqual([]);

    // Redelivered: the chunk written again (its own object) from the same position, the job advanced once.
    expect(await invoke([{ ...message, attributes: { ...message.attributes, ApproximateReceiveCount: '2' } }], crashing)).toEqual({ batchItemFailures: [] });
    const done = await finished(f.orgKey, job.id);
    expect(done.files.map((x) => x.rows)).toEqual([2]);
    const recorded = (await p.deps.exportJobs.get(job.id))!;
    expect(recorded.files[0]!.key).toBe(written[1]);
    expect((await p.deps.objects.get(written[1]!))!.equals(firstBytes!)).toBe(true);
    expect(recorded.version).toBe(1);
  });

  /** A second app of the fixture's org. */
  const otherApp = async (f: Fixture, name: string, settings: Record<string, unknown> = {}): Promise<string> => {
    const res = await p.admin('POST', `/orgs/${f.orgId}/apps`, { name, settings });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };

  it('the files hold exactly the rows of the list endpoints (sessions with include=messages,tool_details), for a ZDR app and a normal one', async () => {
    const f = await p.fixture();
    const zdrApp = await otherApp(f, 'Zero Retention', { zeroDataRetention: true });
    const withTools: TurnMessage[] = [
      { role: 'user', content: 'what time is it?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'clock', arguments: '{}' }],
        tools: [{ id: 'c1', name: 'clock', type: 'function' }],
      },
      { role: 'tool', content: '{"now":"10:00"}', toolCallId: 'c1' },
      { role: 'assistant', content: 'It is ten.', tools: [{ id: 'w1', name: 'widget', type: 'component', component: 'clock-card', success: true }] },
    ];
    const plain = await sessionWith(f.appId, 'plain', [withTools, [{ role: 'user', content: 'thanks', tools: [] }]]);
    const zdr = await sessionWith(zdrApp, 'zdr', [[{ role: 'user', content: 'never stored' }]]);
    const empty = await sessionWith(f.appId, 'empty', []);
    // A turn left open (being written, or a crash): hidden from the list and from the file alike.
    const open = await sessionWith(f.appId, 'open');
    driver.advance(1);
    await p.deps.sessions.touch(open.id, p.deps.clock.nowUs(), undefined, { openTurnId: 'turn-open' });
    await p.deps.sessions.putMessage({
      id: randomUUID(),
      sessionId: open.id,
      role: 'user',
      content: 'half written',
      createdAtUs: p.deps.clock.nowUs(),
      turnId: 'turn-open',
    });
    // A session deleted before the job: its tombstone is in the snapshot.
    const gone = await sessionWith(f.appId, 'gone');
    driver.advance(1);
    expect((await p.admin('DELETE', `/sessions/${gone.id}`)).status).toBe(200);
    driver.advance(5);

    const job = await create(f.orgKey);
    driver.advance(5);
    const done = await finished(f.orgKey, job.id);
    // Usage: one row a turn, the ZDR app's and the deleted session's included (usage holds no content).
    expect(done.files.map((x) => [x.list, x.rows]).sort()).toEqual([
      ['apps', 2],
      ['sessions', 4],
      ['tombstones', 1],
      ['usage', 5],
    ]);

    const sessions = await rowsOf(done, 'sessions');
    expect(sessions).toEqual(await listed(f.orgKey, SESSIONS_WITH_TOOLS));
    expect(sessions.map((r) => r.id).sort()).toEqual([plain.id, zdr.id, empty.id, open.id].sort());
    const byId = new Map(sessions.map((r) => [r.id, r]));
    expect(byId.get(zdr.id)).toMatchObject({ messages: [], zdr: true });
    expect(byId.get(empty.id)).toMatchObject({ messages: [], zdr: false });
    expect(byId.get(open.id)!.messages.map((m: { content: string }) => m.content)).toEqual(['hi from open']);
    const plainRow = byId.get(plain.id)!;
    expect(plainRow.zdr).toBe(false);
    expect(plainRow.messages.map((m: Row) => [m.role, m.content, m.tools ?? null])).toEqual([
      ['user', 'what time is it?', null],
      ['assistant', '', [{ id: 'c1', name: 'clock', type: 'function' }]],
      ['tool', '', null],
      ['assistant', 'It is ten.', [{ id: 'w1', name: 'widget', type: 'component', component: 'clock-card', success: true }]],
      ['user', 'thanks', null],
    ]);

    expect(await rowsOf(done, 'apps')).toEqual((await p.call('GET', '/api/v1/org/apps', { token: f.orgKey })).body.data);
    expect(await rowsOf(done, 'usage')).toEqual(await listed(f.orgKey, '/api/v1/org/usage'));
    const tombstones = await rowsOf(done, 'tombstones');
    expect(tombstones).toEqual(await listed(f.orgKey, '/api/v1/org/tombstones'));
    expect(tombstones.map((t) => t.resource_id)).toEqual([gone.id]);
  });

  it('download links fetch the exact gzip bytes of the object: no Content-Encoding, the bytes are the file', async () => {
    const f = await p.fixture();
    await sessionWith(f.appId, 'ü-ñ-😀 "quoted" \\ back', [[{ role: 'user', content: 'multi\nline\tand unicode ✓' }]]);
    await sessionWith(f.appId, 'second');
    const job = await create(f.orgKey, { lists: ['sessions', 'usage'] });
    const done = await finished(f.orgKey, job.id);
    // Links valid for an hour from the poll (the platform's clock barely moves here).
    const validFor = Date.parse(done.urls_expire_at!) - Date.parse(done.completed_at!);
    expect(validFor).toBeGreaterThanOrEqual(3_600_000);
    expect(validFor).toBeLessThan(3_600_000 + 1_000);
    const stored = (await p.deps.exportJobs.get(job.id))!;
    expect(stored.files.map((x) => x.key.replace(/-[0-9a-f]{8}\.ndjson\.gz$/, '.ndjson.gz')).sort()).toEqual([
      `exports/${f.orgId}/${job.id}/sessions-00000.ndjson.gz`,
      `exports/${f.orgId}/${job.id}/usage-00000.ndjson.gz`,
    ]);

    for (const [i, file] of done.files.entries()) {
      const url = new URL(file.url);
      expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
      expect(url.pathname.endsWith(stored.files[i]!.key)).toBe(true);
      const { bytes, lines, contentType } = await download(file);
      expect(contentType).toBe('application/gzip');
      // The object's bytes exactly, and a gzip of exactly the NDJSON lines (one row each, newline-terminated).
      expect(bytes.equals((await p.deps.objects.get(stored.files[i]!.key))!)).toBe(true);
      expect(bytes.equals(gzipSync(`${lines.join('\n')}\n`))).toBe(true);
      expect(gunzipSync(bytes).toString('utf8').endsWith('\n')).toBe(true);
      // A client that asks for gzip encoding, or unpacks nothing (a raw HTTP GET), gets the same bytes.
      const asked = await fetch(file.url, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
      expect(asked.headers.get('content-encoding')).toBeNull();
      expect(Buffer.from(await asked.arrayBuffer()).equals(bytes)).toBe(true);
      const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        httpGet(file.url, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        }).on('error', reject);
      });
      expect(raw.headers['content-encoding']).toBeUndefined();
      expect(raw.body.equals(bytes)).toBe(true);
    }
    const sessions = await rowsOf(done, 'sessions');
    expect(sessions[1]!.title).toBe('ü-ñ-😀 "quoted" \\ back');
    expect(sessions[1]!.messages[0].content).toBe('multi\nline\tand unicode ✓');
  });

  it('a running job polled after STALLED_AFTER_US sends its lists again once, and then completes', async () => {
    const f = await p.fixture();
    await sessionWith(f.appId, 'stalled');
    const job = await create(f.orgKey, { lists: ['sessions', 'usage'] });
    // Both first messages are lost.
    const lost = await receiveAll(ofJob(job.id));
    expect(lost.map((m) => JSON.parse(m.Body!))).toEqual([
      { jobId: job.id, list: 'sessions', chunk: 0 },
      { jobId: job.id, list: 'usage', chunk: 0 },
    ]);
    for (const m of lost) await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
    expect((await read(f.orgKey, job.id)).status).toBe('running');
    expect(await receiveAll(ofJob(job.id))).toEqual([]);

    driver.advance(STALLED_AFTER_US / 1000 + 1);
    expect((await read(f.orgKey, job.id)).status).toBe('running');
    expect((await read(f.orgKey, job.id)).status).toBe('running');
    const done = await finished(f.orgKey, job.id);
    expect(done.files.map((x) => [x.list, x.rows]).sort()).toEqual([
      ['sessions', 1],
      ['usage', 1],
    ]);
    // Sent again once: each list's chunk 0 written once.
    expect((await p.deps.exportJobs.get(job.id))!.version).toBe(3);
  });

  it('a list longer than a chunk continues across chunks on the real reader: every row once, in the list order', async () => {
    const f = await p.fixture();
    const n = CHUNK_ROWS + 60;
    const topUs = driver.msAhead(1) - 1_000;
    // Three sessions on each microsecond: the tie at row 5,000 straddles the chunk boundary.
    for (let from = 0; from < n; from += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, n - from) }, (_, k) => putSession(p, f, topUs - Math.floor((from + k) / 3) * 1000 - 1_000_000, `bulk ${from + k}`)),
      );
    }
    driver.advance(5);
    const job = await create(f.orgKey, { lists: ['sessions'] });
    const handled = await runQueue(ofJob(job.id));
    expect(handled.map((m) => m.chunk)).toEqual([0, 1]);
    const done = await read(f.orgKey, job.id);
    expect(done.status).toBe('completed');
    expect(done.files.map((x) => x.rows)).toEqual([CHUNK_ROWS, 60]);
    const rows = await rowsOf(done, 'sessions');
    expect(new Set(rows.map((r) => r.id)).size).toBe(n);
    expect(rows.map((r) => r.id)).toEqual((await listed(f.orgKey, '/api/v1/org/sessions')).map((r) => r.id));
  }, 120_000);

  /** Takes every visible message `only` accepts off the queue (returned, still to be deleted); the others are put back. */
  async function receiveAll(only: (m: ExportChunkMessage) => boolean): Promise<Message[]> {
    const taken: Message[] = [];
    const held: Message[] = [];
    for (let round = 0; round < 100; round++) {
      const res = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, AttributeNames: ['All'] }));
      if (!res.Messages?.length) break;
      for (const m of res.Messages) (only(JSON.parse(m.Body!) as ExportChunkMessage) ? taken : held).push(m);
    }
    for (const m of held) await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: 0 }));
    return taken;
  }
});
