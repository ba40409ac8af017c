/**
 * AWS SDK clients. On AWS they use the Lambda's region and role; locally the same clients point at the
 * embedded backends, which speak the same wire protocols (docs/design.md §1).
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

/**
 * The SDK's logger middleware calls `logger.info?.(...)` after every command with a copy of the input
 * and output filtered for sensitive fields, computed before the (no-op) default logger discards it: a
 * walk over every item of a 100-row page. A logger without `info` skips that work; the platform logs
 * through Powertools, never through the SDK, and keeps the SDK's warnings and errors, except the
 * conditional-check failures that optimistic writes expect and handle (one per lost race).
 */
const EXPECTED_FAILURES = new Set(['ConditionalCheckFailedException']);
const SDK_LOGGER = {
  debug: () => undefined,
  warn: (...args: unknown[]) => console.warn(...args),
  error: (...args: unknown[]) => {
    const failure = (args[0] as { error?: { name?: string } } | undefined)?.error;
    if (failure?.name && EXPECTED_FAILURES.has(failure.name)) return;
    console.error(...args);
  },
} as unknown as NonNullable<ConstructorParameters<typeof DynamoDBClient>[0]>['logger'];

export function createDocumentClient(opts: AwsClientOptions): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: opts.region,
    endpoint: opts.endpoints?.dynamodb,
    credentials: opts.credentials,
    maxAttempts: 3,
    logger: SDK_LOGGER,
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}
