/** SQS and KMS clients, kept apart from the DynamoDB client so a function that needs only the table bundles only it. */
import { KMSClient } from '@aws-sdk/client-kms';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { AwsClientOptions } from './aws-clients';

export function createSqsClient(opts: AwsClientOptions): SQSClient {
  return new SQSClient({ region: opts.region, endpoint: opts.endpoints?.sqs, credentials: opts.credentials });
}

/** KMS has no embedded twin: locally the webhook secrets use a key file instead (file-secret-sealer.ts). */
export function createKmsClient(opts: AwsClientOptions): KMSClient {
  return new KMSClient({ region: opts.region });
}
