/** The S3 client, in its own module so only functions that touch the bucket bundle it. */
import { S3Client } from '@aws-sdk/client-s3';
import type { AwsClientOptions } from './aws-clients';

/**
 * The SDK's warnings and errors go to the console, but for its notice on a PutObject of unknown length,
 * which the object store sends on purpose to a server that takes one (s3rver). No `info`: the SDK then
 * skips building the copies it would log.
 */
const SDK_LOGGER = {
  debug: () => undefined,
  warn: (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('Are you using a Stream of unknown length')) return;
    console.warn(...args);
  },
  error: (...args: unknown[]) => console.error(...args),
} as unknown as NonNullable<ConstructorParameters<typeof S3Client>[0]>['logger'];

export function createS3Client(opts: AwsClientOptions): S3Client {
  return new S3Client({
    logger: SDK_LOGGER,
    region: opts.region,
    endpoint: opts.endpoints?.s3,
    credentials: opts.credentials,
    // s3rver needs path style and no streamed checksums, or uploads get chunk framing mixed in.
    forcePathStyle: opts.endpoints?.s3 !== undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
