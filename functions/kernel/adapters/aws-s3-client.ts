/** The S3 client, in its own module so only functions that touch the bucket bundle it. */
import { S3Client } from '@aws-sdk/client-s3';
import type { AwsClientOptions } from './aws-clients';

/**
 * Silent, as the SDK's default logger is: the platform logs through Powertools, and the adapters turn
 * the SDK's errors into their own. Given explicitly so the SDK does not fall back to the console for
 * its notice on a PutObject of unknown length, which the object store sends on purpose to a server that
 * takes one (s3rver). No `info`: the SDK then skips building the copies it would log.
 */
const SDK_LOGGER = { debug: () => undefined, warn: () => undefined, error: () => undefined } as unknown as NonNullable<
  ConstructorParameters<typeof S3Client>[0]
>['logger'];

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
