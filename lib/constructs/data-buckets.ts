/**
 * The uploads bucket and the access-log bucket it logs to. Added straight to the given scope (the data
 * stack) rather than wrapped in a construct of its own, so the buckets' logical ids (and with them
 * the deployed buckets) stay what they have always been.
 */
import { EXPORT_RETENTION_DAYS, EXPORTS_PREFIX } from '../../functions/export/domain/export-storage';
import { Duration, Stack, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { StageConfig } from '../stage-config';

export interface DataBuckets {
  readonly uploadsBucket: s3.Bucket;
  readonly uploadsBucketName: string;
  readonly accessLogsBucket: s3.Bucket;
}

export function addDataBuckets(scope: Construct, config: StageConfig, removalPolicy: RemovalPolicy): DataBuckets {
  const stack = Stack.of(scope);
  const accessLogs = new s3.Bucket(scope, 'AccessLogs', {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    // Server access log delivery does not support SSE-KMS targets.
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    // CloudFront standard logs arrive through an ACL grant to its log-delivery account, so ACLs stay
    // enabled here (and only here); the bucket owner still owns every object, and public ACLs are blocked.
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
    lifecycleRules: [{ expiration: Duration.days(365) }],
    removalPolicy,
    autoDeleteObjects: !config.retainData,
  });
  Validations.of(accessLogs).acknowledge({
    id: 'AwsSolutions-S1',
    reason: 'This bucket is the server-access-log destination of the uploads bucket; logging it into itself would log its own log deliveries.',
  });

  const uploadsBucketName = `platform-${config.stage}-uploads-${stack.account}-${stack.region}`;
  const uploadsBucket = new s3.Bucket(scope, 'Uploads', {
    bucketName: uploadsBucketName,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    // SSE-S3: functions need no KMS permissions and there is no per-request KMS cost or quota.
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    versioned: true,
    lifecycleRules: [
      { abortIncompleteMultipartUploadAfter: Duration.days(1) },
      // Versioning guards against overwrites by mistake; a deleted file must still be gone for good
      // within a bounded time.
      { noncurrentVersionExpiration: Duration.days(30), expiredObjectDeleteMarker: true },
      // Bulk snapshot exports are downloads, not records: gone with their jobs.
      { prefix: EXPORTS_PREFIX, expiration: Duration.days(EXPORT_RETENTION_DAYS), noncurrentVersionExpiration: Duration.days(1) },
    ],
    removalPolicy,
    autoDeleteObjects: !config.retainData,
  });
  logAccessTo(uploadsBucket, uploadsBucketName, accessLogs, 'uploads/');
  return { uploadsBucket, uploadsBucketName, accessLogsBucket: accessLogs };
}

/**
 * Server access logging through a bucket policy scoped to one source bucket and prefix. (The L2
 * `serverAccessLogsBucket` falls back to the legacy LogDeliveryWrite ACL, which any bucket's logs
 * could use, unless the `@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy` flag is set.)
 */
function logAccessTo(source: s3.Bucket, sourceName: string, target: s3.Bucket, prefix: string): void {
  const stack = Stack.of(source);
  // The source ARN from its fixed name, not a reference: the source bucket must wait for this policy
  // (below), and a reference back to it would make that a cycle.
  const sourceArn = stack.formatArn({ service: 's3', region: '', account: '', resource: sourceName });
  target.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('logging.s3.amazonaws.com')],
      actions: ['s3:PutObject'],
      resources: [target.arnForObjects(`${prefix}*`)],
      conditions: {
        ArnLike: { 'aws:SourceArn': sourceArn },
        StringEquals: { 'aws:SourceAccount': stack.account },
      },
    }),
  );
  (source.node.defaultChild as s3.CfnBucket).loggingConfiguration = {
    destinationBucketName: target.bucketName,
    logFilePrefix: prefix,
  };
  if (target.policy) source.node.addDependency(target.policy);
}
