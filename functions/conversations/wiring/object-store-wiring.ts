/** The uploads bucket as an ObjectStore, in its own module so only functions that touch the bucket bundle the S3 client. */
import { createS3Client } from '../../platform/adapters/aws-s3-client';
import { S3ObjectStore } from '../adapters/s3-object-store';
import { ENV } from '../../platform/env';
import type { ObjectStore } from '../ports/file-ports';
import type { WiringOptions } from '../../platform/wiring/core-wiring';

export function buildObjectStore(opts: WiringOptions): ObjectStore {
  return new S3ObjectStore(createS3Client(opts.aws ?? {}), opts.env[ENV.bucketName]);
}
