/**
 * POST /api/v1/chat/files stores the file in the pass that reads it, over HTTP against the local
 * platform: which object-store calls an upload makes (counted in the real S3 client; the local store
 * takes one streamed PutObject, the multipart upload S3 gets is test/unit/s3-object-writer.test.ts),
 * that the client hashes no payload, that a type check needing more than the first bytes reads the
 * file back, and that an upload refused after its bytes went out leaves no record and no object behind.
 */
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { MAX_UPLOAD_BYTES } from '../../functions/conversations/domain/file';
import { chatWorld, expectChatError, type ChatWorld } from '../support/chat';
import { bytesOfSize, corruptDocx, jpeg, png, pngWithLongText } from '../support/file-fixtures';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { MiB, recordS3Calls, type SentS3Call, upload } from '../support/uploads';

const KiB = 1024;

describe('POST /api/v1/chat/files, in one pass', () => {
  let p: TestPlatform;
  let w: ChatWorld;
  let s3: S3Client;
  let bucket: string;
  let sent: SentS3Call[] = [];

  beforeAll(async () => {
    p = await startTestPlatform();
    w = await chatWorld(p);
    ({ s3, bucket } = p.deps.objects as unknown as { s3: S3Client; bucket: string });
    // After signing: the request as it leaves, with the payload hash the signature covers.
    sent = recordS3Calls(s3);
  });
  afterAll(() => p.stop());

  async function counted<T>(op: () => Promise<T>): Promise<{ result: T; commands: string[] }> {
    sent.length = 0;
    const result = await op();
    return { result, commands: sent.map((c) => c.command) };
  }

  async function leftovers(): Promise<{ records: number; objects: number }> {
    const records = (await p.deps.files.listRemovable(Number.MAX_SAFE_INTEGER, 1000)).filter((f) => f.appId === w.appId).length;
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `files/${w.appId}/` }));
    return { records, objects: listed.KeyCount ?? 0 };
  }

  it('stores a file within one part by one PutObject, unhashed by the client', async () => {
    const bytes = bytesOfSize(MiB, png(4, 4));
    const { result, commands } = await counted(() => upload(p, w.chatKey, { name: 'one.png', bytes }));
    expect(result.status, result.text).toBe(201);
    expect(commands).toEqual(['PutObject']);
    expect(sent[0]!.payloadHash).toBe('UNSIGNED-PAYLOAD');
    expect(await p.deps.objects.get(`files/${w.appId}/${result.body.fileId}/original`)).toEqual(Buffer.from(bytes));
  });

  it('stores 20 MiB as one PutObject streamed as it arrives, and records the size and hash of what it stored', async () => {
    const bytes = bytesOfSize(MAX_UPLOAD_BYTES, jpeg());
    const { result, commands } = await counted(() => upload(p, w.chatKey, { name: 'big.jpg', bytes }));
    expect(result.status, result.text).toBe(201);
    expect(commands).toEqual(['PutObject']);
    expect(sent[0]!.payloadHash).toBe('UNSIGNED-PAYLOAD');
    const file = await p.deps.files.get(result.body.fileId);
    expect(file).toMatchObject({ status: 'ready', size: MAX_UPLOAD_BYTES, sha256: createHash('sha256').update(bytes).digest('hex') });
    expect((await p.deps.objects.get(file!.storageKey))!.equals(Buffer.from(bytes))).toBe(true);
  });

  it('reads an image back when its type lies past the first bytes, and answers as the whole file says', async () => {
    const plain = await counted(() => upload(p, w.chatKey, { name: 'long.png', bytes: pngWithLongText(300 * KiB) }));
    expect(plain.result.status, plain.result.text).toBe(201);
    expect(plain.commands).toEqual(['PutObject', 'GetObject']);
    const before = await leftovers();
    expectChatError(await upload(p, w.chatKey, { name: 'animated.png', bytes: pngWithLongText(300 * KiB, true) }), 400, /the bytes are image\/apng/);
    expect(await leftovers()).toEqual(before);
  });

  describe('a refused upload leaves no record and no object', () => {
    it.each([
      ['bytes not matching the extension', 'photo.jpg', () => png(2, 2), {}, 400, /does not match its extension/],
      ['a corrupt document', 'broken.docx', corruptDocx, {}, 422, /corrupt/],
      ['a session of no app of the key', 'a.png', () => png(2, 2), { 'X-Chat-Session-ID': randomUUID() }, 404, /session/i],
    ] as const)('%s', async (_label, name, make, headers, status, message) => {
      const before = await leftovers();
      const { result, commands } = await counted(() => upload(p, w.chatKey, { name, bytes: make() }, headers));
      expectChatError(result, status, message);
      expect(commands).toEqual(['PutObject', 'ListObjectsV2', 'DeleteObjects']);
      expect(await leftovers()).toEqual(before);
    });

    it('a file over the limit: what was sent of it is removed', async () => {
      const before = await leftovers();
      const { result, commands } = await counted(() => upload(p, w.chatKey, { name: 'over.png', bytes: bytesOfSize(MAX_UPLOAD_BYTES + 1, png(2, 2)) }));
      expectChatError(result, 400, /20 MB/);
      expect(commands).toEqual(['PutObject', 'DeleteObject']);
      expect(await leftovers()).toEqual(before);
    });

    it('an empty file or an unsupported type never reaches storage', async () => {
      const before = await leftovers();
      const empty = await counted(() => upload(p, w.chatKey, { name: 'empty.png', bytes: new Uint8Array(0) }));
      expectChatError(empty.result, 400, /empty/);
      const text = await counted(() => upload(p, w.chatKey, { name: 'notes.txt', bytes: png(2, 2) }));
      expectChatError(text.result, 400, /Unsupported file type/);
      expect([...empty.commands, ...text.commands]).toEqual([]);
      expect(await leftovers()).toEqual(before);
    });

    it('a repeat of an Idempotency-Key with another file', async () => {
      expect((await upload(p, w.chatKey, { name: 'a.png', bytes: png(3, 3) }, { 'Idempotency-Key': 'stream-1' })).status).toBe(201);
      const before = await leftovers();
      const again = await counted(() => upload(p, w.chatKey, { name: 'a.png', bytes: png(3, 3) }, { 'Idempotency-Key': 'stream-1' }));
      expect(again.result.headers.get('idempotent-replayed')).toBe('true');
      expectChatError(await upload(p, w.chatKey, { name: 'a.png', bytes: png(4, 4) }, { 'Idempotency-Key': 'stream-1' }), 422);
      expect(await leftovers()).toEqual(before);
    });
  });
});
