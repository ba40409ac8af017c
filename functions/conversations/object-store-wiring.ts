/**
 * The uploads bucket as an ObjectStore. A module of its own: the S3 client it imports on first use is
 * then a chunk only of the functions that hold the bucket, not of every function built on the
 * conversation stores.
 */
import { ENV } from '../kernel/env';
import type { WiringOptions } from '../tenancy/wiring/core-wiring';
import { LazyObjectStore } from './adapters/lazy-object-store';
import type { ObjectStore } from './app/file-ports';

/** The uploads bucket as an ObjectStore, its S3 client imported on the first request that touches a file. */
export function buildObjectStore(opts: WiringOptions): ObjectStore {
  const bucket = opts.env[ENV.bucketName];
  return new LazyObjectStore(async () => {
    const [{ S3ObjectStore }, { createS3Client }] = await Promise.all([import('./adapters/s3-object-store'), import('../kernel/adapters/aws-s3-client')]);
    return new S3ObjectStore(createS3Client(opts.aws ?? {}), bucket);
  });
}
