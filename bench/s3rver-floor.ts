/**
 * The embedded object store's own cost, for the files bench: the same bytes stored by the S3 client of
 * the platform (createS3Client, the same settings) into an s3rver started as the platform starts its
 * own, both in one process and so on one event loop, as in `npm start`, by one PutObject of a known
 * length: what a bare store of the bytes costs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { CompleteMultipartUploadCommand, CreateBucketCommand, CreateMultipartUploadCommand, PutObjectCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { createS3Client } from '../functions/kernel/adapters/aws-s3-client';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../functions/local/backends';

export interface BareObjectStore {
  /** Milliseconds of one PutObject of `bytes` (a stream body, as the upload sends it: no payload hash by the client). */
  put(bytes: Buffer): Promise<number>;
  stop(): Promise<void>;
}

export async function startBareObjectStore(): Promise<BareObjectStore> {
  const dir = mkdtempSync(join(tmpdir(), 'platform-bench-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory: dir, silent: true });
  const address = await server.run();
  const s3 = createS3Client({ region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoints: { s3: `http://127.0.0.1:${address.port}` } });
  const Bucket = 'bench-floor';
  await s3.send(new CreateBucketCommand({ Bucket }));
  let n = 0;
  const timed = async (op: () => Promise<unknown>) => {
    const t0 = performance.now();
    await op();
    return performance.now() - t0;
  };
  return {
    put: (bytes) => timed(() => s3.send(new PutObjectCommand({ Bucket, Key: `put-${n++}`, Body: Readable.from([bytes]), ContentLength: bytes.length }))),
    async stop() {
      s3.destroy();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
