/**
 * Creates what the CDK data stack creates on AWS, on the embedded backends: the table (from the same
 * TABLE_DESIGN), the bucket, and the queues with their dead-letter queues. Idempotent.
 */
import { CreateTableCommand, DescribeTableCommand, type DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { TABLE_DESIGN } from '../kernel/adapters/table-design';
import { QUEUES } from '../workers';

export async function ensureTable(db: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await db.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
  const keyNames = new Set<string>([TABLE_DESIGN.partitionKey, TABLE_DESIGN.sortKey]);
  for (const i of TABLE_DESIGN.indexes) keyNames.add(i.partitionKey).add(i.sortKey);
  await db.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...keyNames].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE_DESIGN.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_DESIGN.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE_DESIGN.indexes.map((i) => ({
        IndexName: i.name,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: 'HASH' },
          { AttributeName: i.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
}

export async function ensureBucket(s3: S3Client, bucket: string): Promise<void> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  }
}

/** Creates each queue of functions/workers.ts with a DLQ and the same redrive as on AWS; returns the URLs. */
export async function ensureQueues(sqs: SQSClient): Promise<Record<string, string>> {
  const urls: Record<string, string> = {};
  for (const q of QUEUES) {
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${q.id}-dlq` }));
    const dlqArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn;
    const main = await sqs.send(
      new CreateQueueCommand({
        QueueName: q.id,
        Attributes: {
          VisibilityTimeout: String(q.timeoutSeconds * 6),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: q.maxReceiveCount }),
        },
      }),
    );
    urls[q.id] = main.QueueUrl!;
    urls[`${q.id}-dlq`] = dlq.QueueUrl!;
  }
  return urls;
}
