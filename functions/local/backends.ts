/**
 * The embedded backends of the local platform (docs/design.md §1): dynalite (DynamoDB API, LevelDB under the
 * data directory), s3rver (S3 API, files under the data directory) and fauxqs (SQS API, in memory).
 * Each listens on an ephemeral loopback port; only this process talks to them.
 */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import { buildApp } from 'fauxqs';
import type { AwsEndpoints } from '../kernel/adapters/aws-clients';

export interface Backends {
  readonly endpoints: Required<AwsEndpoints>;
  stop(): Promise<void>;
}

export const LOCAL_REGION = 'us-east-1';
/** s3rver accepts only this key pair; the other backends accept any. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** `dataDir` persists tables and files; tables live in memory when `persistTables` is false (tests). */
export async function startBackends(dataDir: string, persistTables: boolean): Promise<Backends> {
  mkdirSync(join(dataDir, 's3'), { recursive: true });
  const dyn: Server = dynalite({ ...(persistTables ? { path: join(dataDir, 'dynamodb') } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    dyn.once('error', reject);
    dyn.listen(0, '127.0.0.1', () => resolve());
  });
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', directory: join(dataDir, 's3'), silent: true });
  const s3Address = await s3.run();
  // fauxqs's own start helper binds every interface; its app, listened on loopback, does not.
  const sqs = buildApp({ logger: false, defaultRegion: LOCAL_REGION });
  const sqsAddress = await sqs.listen({ port: 0, host: '127.0.0.1' });
  return {
    endpoints: {
      dynamodb: `http://127.0.0.1:${(dyn.address() as AddressInfo).port}`,
      s3: `http://127.0.0.1:${s3Address.port}`,
      sqs: sqsAddress,
    },
    async stop() {
      await sqs.close();
      await s3.close();
      await new Promise<void>((resolve) => dyn.close(() => resolve()));
    },
  };
}
