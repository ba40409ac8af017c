/**
 * The object store's writers against an s3rver, counted in the real S3 client: the multipart upload
 * an object of unknown length becomes on S3 (parts of 8 MiB sent as they fill, a file within one part
 * as one PutObject, payloads unhashed, a given-up upload aborted), and the one streamed PutObject a
 * store that takes unknown lengths gets.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordS3Calls, type SentS3Call } from '../support/uploads';
import { S3StreamingObjectStore } from '../../functions/conversations/adapters/s3-streaming-object-store';
import { STREAMED_PART_BYTES } from '../../functions/conversations/adapters/s3-object-writer';
import { createS3Client } from '../../functions/kernel/adapters/aws-s3-client';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../functions/local/backends';

const MiB = 1024 * 1024;
const Bucket = 'writer-test';

/** `size` bytes that differ from place to place, in pieces of 64 KiB as a request body arrives. */
function pieces(size: number): { whole: Buffer; chunks: Buffer[] } {
  const whole = Buffer.alloc(size);
  for (let i = 0; i < size; i += 4) whole.writeUInt32LE(i, i);
  const chunks: Buffer[] = [];
  for (let o = 0; o < size; o += 64 * 1024) chunks.push(whole.subarray(o, o + 64 * 1024));
  return { whole, chunks };
}

describe('S3StreamingObjectStore.writer', () => {
  let dir: string;
  let server: S3rver;
  let s3: S3Client;
  let sent: SentS3Call[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'writer-test-'));
    server = new S3rver({ port: 0, address: '127.0.0.1', directory: dir, silent: true });
    const { port } = await server.run();
    s3 = createS3Client({ region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoints: { s3: `http://127.0.0.1:${port}` } });
    await s3.send(new CreateBucketCommand({ Bucket }));
    sent = recordS3Calls(s3);
  });
  afterAll(async () => {
    s3.destroy();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function write(store: S3StreamingObjectStore, key: string, chunks: Buffer[], giveUpAfter?: number): Promise<string[]> {
    sent.length = 0;
    const writer = store.writer(key, 'image/png');
    for (const [i, chunk] of chunks.entries()) {
      if (i === giveUpAfter) {
        await writer.abort();
        return sent.map((c) => c.command);
      }
      await writer.write(chunk);
    }
    await writer.end();
    return sent.map((c) => c.command);
  }

  describe('on S3: a multipart upload past one part', () => {
    const store = () => new S3StreamingObjectStore(s3, Bucket, false);

    it('sends 20 MiB as parts of 8 MiB as they fill, unhashed, and stores the bytes as given', async () => {
      const { whole, chunks } = pieces(20 * MiB);
      expect(STREAMED_PART_BYTES).toBe(8 * MiB);
      expect(await write(store(), 'mpu/big', chunks)).toEqual(['CreateMultipartUpload', 'UploadPart', 'UploadPart', 'UploadPart', 'CompleteMultipartUpload']);
      expect(sent.filter((c) => c.command === 'UploadPart').map((c) => c.payloadHash)).toEqual(Array(3).fill('UNSIGNED-PAYLOAD'));
      expect((await store().get('mpu/big'))!.equals(whole)).toBe(true);
    });

    it('sends a file within one part as one PutObject', async () => {
      const { whole, chunks } = pieces(MiB);
      expect(await write(store(), 'mpu/small', chunks)).toEqual(['PutObject']);
      expect(sent[0]!.payloadHash).toBe('UNSIGNED-PAYLOAD');
      expect((await store().get('mpu/small'))!.equals(whole)).toBe(true);
    });

    it('a given-up upload is aborted, and no object is left', async () => {
      const { chunks } = pieces(20 * MiB);
      expect(await write(store(), 'mpu/given-up', chunks, 18 * 16)).toEqual(['CreateMultipartUpload', 'UploadPart', 'UploadPart', 'AbortMultipartUpload']);
      expect((await s3.send(new ListObjectsV2Command({ Bucket, Prefix: 'mpu/given-up' }))).KeyCount).toBe(0);
    });
  });

  describe('on a store that takes unknown lengths: one streamed PutObject', () => {
    const store = () => new S3StreamingObjectStore(s3, Bucket, true);

    it('streams 20 MiB in one request and stores the bytes as given', async () => {
      const { whole, chunks } = pieces(20 * MiB);
      expect(await write(store(), 'put/big', chunks)).toEqual(['PutObject']);
      expect((await store().get('put/big'))!.equals(whole)).toBe(true);
    });

    it('a given-up object is removed', async () => {
      const { chunks } = pieces(4 * MiB);
      expect(await write(store(), 'put/given-up', chunks, 30)).toEqual(['PutObject', 'DeleteObject']);
      expect((await s3.send(new ListObjectsV2Command({ Bucket, Prefix: 'put/given-up' }))).KeyCount).toBe(0);
    });
  });
});
