/**
 * AWS SDK clients. On AWS they use the Lambda's region and role; locally the same clients point at the
 * embedded backends, which speak the same wire protocols (DESIGN.md §1).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';

export interface AwsEndpoints {
  readonly dynamodb?: string;
  readonly s3?: string;
  readonly sqs?: string;
}

export interface AwsClientOptions {
  readonly region?: string;
  readonly endpoints?: AwsEndpoints;
  /** Static credentials for the embedded backends; on AWS the default provider chain is used. */
  readonly credentials?: { accessKeyId: string; secretAccessKey: string };
}

export function createDocumentClient(opts: AwsClientOptions): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: opts.region,
    endpoint: opts.endpoints?.dynamodb,
    credentials: opts.credentials,
    maxAttempts: 3,
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

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

export function createSqsClient(opts: AwsClientOptions): SQSClient {
  return new SQSClient({ region: opts.region, endpoint: opts.endpoints?.sqs, credentials: opts.credentials });
}

/** KMS has no embedded twin: locally the webhook secrets use a key file instead (file-secret-sealer.ts). */
export function createKmsClient(opts: AwsClientOptions): KMSClient {
  return new KMSClient({ region: opts.region });
}
