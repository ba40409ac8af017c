/** The S3 client, in its own module so only functions that touch the bucket bundle it. */
import { S3Client } from '@aws-sdk/client-s3';
import type { AwsClientOptions } from './aws-clients';

export function createS3Client(opts: AwsClientOptions): S3Client {
  return new S3Client({
    region: opts.region,
    endpoint: opts.endpoints?.s3,
    credentials: opts.credentials,
    // s3rver needs path style and no streamed checksums, or uploads get chunk framing mixed in.
    forcePathStyle: opts.endpoints?.s3 !== undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
