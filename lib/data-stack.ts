/**
 * Stateful resources: the one table, the uploads bucket, the queues with their dead-letter queues and
 * the webhook-secret key. Kept apart from the compute stack so that functions, routes and alarms can
 * be replaced freely without touching data.
 */
import { Duration, RemovalPolicy, SecretValue, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { PAYMENT_SECRET_PLACEHOLDER } from '../functions/env';
import { TABLE_DESIGN } from '../functions/table-design';
import { QUEUES, type QueueDef } from '../functions/workers';
import type { OcrTargets } from './constructs/function-context';
import type { StageConfig } from './stage-config';

export interface DataStackProps extends StackProps {
  readonly config: StageConfig;
}

/** A queue the platform sends to and the dead-letter queue its poison messages end in. */
export interface QueuePair {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
}

/** AWS guidance for SQS -> Lambda: visibility timeout at least six times the function timeout. */
const VISIBILITY_FACTOR = 6;

export class DataStack extends Stack {
  public readonly table: dynamodb.TableV2;
  public readonly uploadsBucket: s3.Bucket;
  /** Server access logs of the uploads bucket (`uploads/`) and the front door's standard logs (`cloudfront/`). */
  public readonly accessLogsBucket: s3.Bucket;
  /** Fixed name, so the compute stack can write exact IAM resources for it (see AppFunction). */
  public readonly uploadsBucketName: string;
  public readonly jobs: QueuePair;
  public readonly webhooks: QueuePair;
  /** Textract's completion notices (SNS, raw delivery) for the OCR worker. */
  public readonly ocrQueue: QueuePair;
  /** The topic Textract announces finished jobs on; only the Textract publishing role may publish. */
  public readonly ocrTopic: sns.Topic;
  /** Assumed by Textract (for this account only) to publish to the OCR topic. */
  public readonly textractPublishRole: iam.Role;
  /** What the `ocr:start` grant points at. */
  public readonly ocr: OcrTargets;
  /** Receives schedule invocations EventBridge Scheduler could not deliver and job runs that failed. */
  public readonly scheduledJobsDeadLetterQueue: sqs.Queue;
  /** Encrypts webhook signing secrets at rest (DESIGN.md §4): `secrets:seal` / `secrets:open` grants. */
  public readonly webhookSecretsKey: kms.Key;
  /**
   * The value CloudFront sends to the area APIs in its origin header and their WAF requires. Named, so
   * other stacks resolve it by a literal dynamic reference instead of a cross-stack token.
   */
  public readonly originVerifySecretName: string;
  /** The Stripe API key of area C's payments (what the `payments:charge` grant points at); its value is set by the operator. */
  public readonly paymentSecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { config } = props;
    const removalPolicy = config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    const attr = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });
    this.table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: attr(TABLE_DESIGN.partitionKey),
      sortKey: attr(TABLE_DESIGN.sortKey),
      billing: dynamodb.Billing.onDemand(),
      timeToLiveAttribute: TABLE_DESIGN.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // The AWS managed key (aws/dynamodb): unlike the default AWS owned key its use shows in
      // CloudTrail; unlike a customer-managed key there is no key policy to get wrong, no monthly key
      // fee, and callers need no KMS permissions (DynamoDB caches the table key, so request charges
      // stay small). A customer-managed key would pay off only for cross-account access or
      // crypto-shredding, neither of which the design needs.
      encryption: dynamodb.TableEncryptionV2.awsManagedKey(),
      deletionProtection: config.retainData,
      // Contributor Insights names the hottest partition keys, the first signal of the per-org GSI
      // limit in docs/adr/0007-scale-limits.md. Worth its cost where real traffic is.
      contributorInsightsSpecification: { enabled: config.retainData },
      globalSecondaryIndexes: TABLE_DESIGN.indexes.map((index) => ({
        indexName: index.name,
        partitionKey: attr(index.partitionKey),
        sortKey: attr(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      })),
      removalPolicy,
    });

    const accessLogs = new s3.Bucket(this, 'AccessLogs', {
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
    this.accessLogsBucket = accessLogs;
    Validations.of(accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This bucket is the server-access-log destination of the uploads bucket; logging it into itself would log its own log deliveries.',
    });

    this.uploadsBucketName = `platform-${config.stage}-uploads-${this.account}-${this.region}`;
    this.uploadsBucket = new s3.Bucket(this, 'Uploads', {
      bucketName: this.uploadsBucketName,
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
      ],
      removalPolicy,
      autoDeleteObjects: !config.retainData,
    });
    this.logAccessTo(this.uploadsBucket, this.uploadsBucketName, accessLogs, 'uploads/');

    this.jobs = this.queuePair('Jobs', queueDef('jobs'), removalPolicy);
    this.webhooks = this.queuePair('Webhooks', queueDef('webhooks'), removalPolicy);

    // OCR (docs/adr/0015): Textract -> SNS -> the OCR queue -> the OCR worker. The topic uses the AWS
    // managed SNS key; the queue is SSE-SQS, so SNS needs no key grant to deliver to it.
    this.ocrQueue = this.queuePair('Ocr', queueDef('ocr'), removalPolicy);
    this.ocrTopic = new sns.Topic(this, 'OcrTopic', {
      displayName: `platform-${config.stage} Textract completions`,
      masterKey: kms.Alias.fromAliasName(this, 'SnsManagedKey', 'alias/aws/sns'),
      enforceSSL: true,
    });
    this.ocrTopic.addSubscription(new subscriptions.SqsSubscription(this.ocrQueue.queue, { rawMessageDelivery: true }));
    this.textractPublishRole = new iam.Role(this, 'TextractPublishRole', {
      description: 'Assumed by Amazon Textract to announce finished text detection jobs on the OCR topic',
      assumedBy: new iam.ServicePrincipal('textract.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': this.account } } }),
    });
    this.ocrTopic.grantPublish(this.textractPublishRole);
    this.ocr = { topicArn: this.ocrTopic.topicArn, publishRoleArn: this.textractPublishRole.roleArn };

    this.scheduledJobsDeadLetterQueue = new sqs.Queue(this, 'ScheduledJobsDlq', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    Validations.of(this.scheduledJobsDeadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself a dead-letter queue: the DeadLetterConfig of the EventBridge Scheduler targets and the on-failure destination of the job functions, which cdk-nag does not recognise as DLQ use.',
    });

    this.originVerifySecretName = `platform-${config.stage}/origin-verify`;
    const originVerify = new secretsmanager.Secret(this, 'OriginVerify', {
      secretName: this.originVerifySecretName,
      description: 'Shared by the CloudFront front door (origin custom header) and the WAF of each area API',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy,
    });
    Validations.of(originVerify).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotating it needs CloudFront and every WAF rule updated in step (the documented follow-up in docs/adr/0013); until then it is rotated by a redeploy with a new value. It is not a credential of any caller: it only proves a request came through the front door.',
    });

    // A placeholder until the operator stores the key (README "Deploying to AWS"); until then every
    // charge is refused by the adapter with nothing sent to Stripe (adapters/stripe-payment-gateway.ts).
    this.paymentSecret = new secretsmanager.Secret(this, 'PaymentProviderKey', {
      secretName: `platform-${config.stage}/stripe-api-key`,
      description: 'The Stripe secret or restricted API key area C charges with (Shared Payment Tokens); read on the first charge',
      secretStringValue: SecretValue.unsafePlainText(PAYMENT_SECRET_PLACEHOLDER),
      removalPolicy,
    });
    Validations.of(this.paymentSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'A Stripe API key is rolled in the Stripe dashboard, which no rotation Lambda can do; the operator puts the new key into this secret (README), and functions read it again on their next cold start.',
    });

    this.webhookSecretsKey = new kms.Key(this, 'WebhookSecretsKey', {
      alias: `alias/platform-${config.stage}-webhook-secrets`,
      description: 'Encrypts webhook signing secrets at rest (DESIGN.md section 4)',
      enableKeyRotation: true,
      removalPolicy,
      pendingWindow: Duration.days(config.retainData ? 30 : 7),
    });
  }

  /** Every queue the platform sends to, with the dead-letter queue behind it. */
  public get queuePairs(): ReadonlyArray<{ readonly name: string } & QueuePair> {
    return [
      { name: 'jobs', ...this.jobs },
      { name: 'webhooks', ...this.webhooks },
      { name: 'ocr', ...this.ocrQueue },
    ];
  }

  /**
   * Server access logging through a bucket policy scoped to one source bucket and prefix. (The L2
   * `serverAccessLogsBucket` falls back to the legacy LogDeliveryWrite ACL, which any bucket's logs
   * could use, unless the `@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy` flag is set.)
   */
  private logAccessTo(source: s3.Bucket, sourceName: string, target: s3.Bucket, prefix: string): void {
    // The source ARN from its fixed name, not a reference: the source bucket must wait for this policy
    // (below), and a reference back to it would make that a cycle.
    const sourceArn = this.formatArn({ service: 's3', region: '', account: '', resource: sourceName });
    target.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal('logging.s3.amazonaws.com')],
        actions: ['s3:PutObject'],
        resources: [target.arnForObjects(`${prefix}*`)],
        conditions: {
          ArnLike: { 'aws:SourceArn': sourceArn },
          StringEquals: { 'aws:SourceAccount': this.account },
        },
      }),
    );
    (source.node.defaultChild as s3.CfnBucket).loggingConfiguration = {
      destinationBucketName: target.bucketName,
      logFilePrefix: prefix,
    };
    if (target.policy) source.node.addDependency(target.policy);
  }

  /** Work queues hold only in-flight work and go with the stack; their DLQs keep evidence (`removalPolicy`). */
  private queuePair(
    id: string,
    def: Pick<QueueDef, 'timeoutSeconds' | 'maxReceiveCount'>,
    removalPolicy: RemovalPolicy,
  ): QueuePair {
    const deadLetterQueue = new sqs.Queue(this, `${id}Dlq`, {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    const queue = new sqs.Queue(this, `${id}Queue`, {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(def.timeoutSeconds * VISIBILITY_FACTOR),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: def.maxReceiveCount },
    });
    return { queue, deadLetterQueue };
  }
}

function queueDef(id: QueueDef['id']): QueueDef {
  const def = QUEUES.find((q) => q.id === id);
  if (!def) throw new Error(`functions/workers.ts declares no queue "${id}"`);
  return def;
}
