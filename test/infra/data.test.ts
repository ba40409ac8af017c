import { describe, it, expect } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { TABLE_DESIGN } from '../../functions/kernel/adapters/table-design';
import { resourcesOfType, synthPlatform } from './platform-fixture';

const prod = synthPlatform('prod');
const dev = synthPlatform('dev');

function table(template: typeof prod.dataTemplate) {
  const tables = Object.values(resourcesOfType(template, 'AWS::DynamoDB::GlobalTable'));
  expect(tables).toHaveLength(1);
  return tables[0]!;
}

describe('the table', () => {
  const { Properties: props } = table(prod.dataTemplate);

  it('has the key schema and the four GSIs of TABLE_DESIGN, all string keys, projection ALL', () => {
    expect(props!.KeySchema).toEqual([
      { AttributeName: TABLE_DESIGN.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_DESIGN.sortKey, KeyType: 'RANGE' },
    ]);
    expect(props!.GlobalSecondaryIndexes).toEqual(
      TABLE_DESIGN.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    );
    for (const attribute of props!.AttributeDefinitions as { AttributeType: string }[]) {
      expect(attribute.AttributeType).toBe('S');
    }
  });

  it('is on demand, encrypted, with TTL on expiresAt and point-in-time recovery', () => {
    expect(props!.BillingMode).toBe('PAY_PER_REQUEST');
    expect(props!.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS' });
    expect(props!.TimeToLiveSpecification).toEqual({ AttributeName: TABLE_DESIGN.ttlAttribute, Enabled: true });
    expect(props!.Replicas[0].PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  });

  it('is retained and deletion-protected outside dev, disposable in dev', () => {
    expect(table(prod.dataTemplate).DeletionPolicy).toBe('Retain');
    expect(props!.Replicas[0].DeletionProtectionEnabled).toBe(true);
    const devTable = table(dev.dataTemplate);
    expect(devTable.DeletionPolicy).toBe('Delete');
    expect(devTable.Properties!.Replicas[0].DeletionProtectionEnabled).toBe(false);
  });
});

describe('the uploads bucket', () => {
  it('blocks public access, versions, encrypts, logs access and aborts stale multipart uploads', () => {
    prod.dataTemplate.hasResourceProperties('AWS::S3::Bucket', {
      BucketName: prod.data.uploadsBucketName,
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      VersioningConfiguration: { Status: 'Enabled' },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LoggingConfiguration: { DestinationBucketName: Match.anyValue(), LogFilePrefix: 'uploads/' },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } })]),
      },
    });
  });

  it('keeps ACLs only on the access-log bucket, for CloudFront log delivery, with public ACLs blocked', () => {
    const buckets = Object.entries(resourcesOfType(prod.dataTemplate, 'AWS::S3::Bucket'));
    const accessLogsId = prod.data.getLogicalId(prod.data.accessLogsBucket.node.defaultChild as CfnBucket);
    for (const [id, bucket] of buckets) {
      const ownership = bucket.Properties!.OwnershipControls.Rules[0].ObjectOwnership;
      expect(ownership, id).toBe(id === accessLogsId ? 'BucketOwnerPreferred' : 'BucketOwnerEnforced');
      expect(bucket.Properties!.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
    expect(buckets.map(([id]) => id)).toContain(accessLogsId);
  });

  it('denies every request without TLS on every bucket', () => {
    const buckets = Object.keys(resourcesOfType(prod.dataTemplate, 'AWS::S3::Bucket'));
    for (const bucket of buckets) {
      prod.dataTemplate.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: bucket },
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
  });
});

describe('keys and queues', () => {
  it('rotates the webhook-secrets key', () => {
    prod.dataTemplate.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    prod.dataTemplate.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/platform-prod-webhook-secrets' });
  });

  it('encrypts every queue and denies non-TLS access to it', () => {
    const queues = resourcesOfType(prod.dataTemplate, 'AWS::SQS::Queue');
    for (const [id, queue] of Object.entries(queues)) {
      expect(queue.Properties?.SqsManagedSseEnabled, id).toBe(true);
      prod.dataTemplate.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
  });
});
