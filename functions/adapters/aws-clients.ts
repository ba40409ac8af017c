/**
 * AWS SDK clients. On AWS they use the Lambda's region and role; locally the same clients point at the
 * embedded backends, which speak the same wire protocols (DESIGN.md §1).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

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
