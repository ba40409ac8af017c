/**
 * Stateful resources: the one table, the uploads bucket, the queues with their dead-letter queues and
 * the webhook-secret key. Kept apart from the compute stack so that functions, routes and alarms can
 * be replaced freely without touching data.
 */
import { CrossStackReferences, Duration, ReferenceStrength, RemovalPolicy, SecretValue, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { PAYMENT_SECRET_PLACEHOLDER } from '../functions/kernel/env';
import { ConsoleUserPool } from './constructs/console-identity';
import { addDataBuckets } from './constructs/data-buckets';
import type { OcrTargets } from './constructs/function-context';
import { addPlatformTable } from './constructs/platform-table';
import { addQueuePair, queueDef, type QueuePair } from './constructs/queue-pair';
import type { StageConfig } from './stage-config';

export interface DataStackProps extends StackProps {
  readonly config: StageConfig;
}

export class DataStack extends Stack {
  public readonly table: dynamodb.TableV2;
  public readonly uploadsBucket: s3.Bucket;
  /** Server access logs of the uploads bucket (`uploads/`) and the front door's standard logs (`cloudfront/`). */
  public readonly accessLogsBucket: s3.Bucket;
  /** Fixed name, so the compute stack can write exact IAM resources for it (see AppFunction). */
  public readonly uploadsBucketName: string;
  public readonly jobs: QueuePair;
  public readonly webhooks: QueuePair;
  public readonly exports: QueuePair;
  /** Background runs of the Responses API, one message a response. */
  public readonly responses: QueuePair;
  /** Area C's order events, delivered to each app's agent-platform receiver. */
  public readonly orderEvents: QueuePair;
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
  /** Encrypts webhook signing secrets at rest (docs/design.md §4): `secrets:seal` / `secrets:open` grants. */
  public readonly webhookSecretsKey: kms.Key;
  /**
   * The value CloudFront sends to the area APIs in its origin header and their WAF requires. Named, so
   * other stacks resolve it by a literal dynamic reference instead of a cross-stack token.
   */
  public readonly originVerifySecretName: string;
  /** The Stripe API key of area C's payments (what the `payments:charge` grant points at); its value is set by the operator. */
  public readonly paymentSecret: secretsmanager.Secret;
  /**
   * The console's sign-in (docs/adr/0042): the user pool and its managed-login domain. Console
   * sessions are items of the table above and expire through its TTL attribute.
   */
  public readonly consoleIdentity: ConsoleUserPool;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { config } = props;
    const removalPolicy = config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.table = addPlatformTable(this, config, removalPolicy);

    const buckets = addDataBuckets(this, config, removalPolicy);
    this.accessLogsBucket = buckets.accessLogsBucket;
    this.uploadsBucketName = buckets.uploadsBucketName;
    this.uploadsBucket = buckets.uploadsBucket;

    this.jobs = addQueuePair(this, 'Jobs', queueDef('jobs'), removalPolicy);
    this.webhooks = addQueuePair(this, 'Webhooks', queueDef('webhooks'), removalPolicy);
    this.exports = addQueuePair(this, 'Exports', queueDef('exports'), removalPolicy);
    this.responses = addQueuePair(this, 'Responses', queueDef('responses'), removalPolicy);
    this.orderEvents = addQueuePair(this, 'OrderEvents', queueDef('order-events'), removalPolicy);

    // OCR (docs/adr/0015): Textract -> SNS -> the OCR queue -> the OCR worker. The topic uses the AWS
    // managed SNS key; the queue is SSE-SQS, so SNS needs no key grant to deliver to it.
    this.ocrQueue = addQueuePair(this, 'Ocr', queueDef('ocr'), removalPolicy);
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
      reason:
        'This queue is itself a dead-letter queue: the DeadLetterConfig of the EventBridge Scheduler targets and the on-failure destination of the job functions, which cdk-nag does not recognise as DLQ use.',
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
      reason:
        'Rotating it needs CloudFront and every WAF rule updated in step (the documented follow-up in docs/adr/0013); until then it is rotated by a redeploy with a new value. It is not a credential of any caller: it only proves a request came through the front door.',
    });

    // A placeholder until the operator stores the key (README "Deploying to AWS"); until then every
    // charge is refused by the adapter with nothing sent to Stripe (acp/adapters/stripe-payment-provider.ts).
    this.paymentSecret = new secretsmanager.Secret(this, 'PaymentProviderKey', {
      secretName: `platform-${config.stage}/stripe-api-key`,
      description: 'The Stripe secret or restricted API key area C charges with (Shared Payment Tokens); read on the first charge',
      secretStringValue: SecretValue.unsafePlainText(PAYMENT_SECRET_PLACEHOLDER),
      removalPolicy,
    });
    Validations.of(this.paymentSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A Stripe API key is rolled in the Stripe dashboard, which no rotation Lambda can do; the operator puts the new key into this secret (README), and functions read it again on their next cold start.',
    });

    this.webhookSecretsKey = new kms.Key(this, 'WebhookSecretsKey', {
      alias: `alias/platform-${config.stage}-webhook-secrets`,
      description: 'Encrypts webhook signing secrets at rest (docs/design.md section 4)',
      enableKeyRotation: true,
      removalPolicy,
      pendingWindow: Duration.days(config.retainData ? 30 : 7),
    });

    this.consoleIdentity = new ConsoleUserPool(this, 'Console', { config, removalPolicy });
  }

  /** Every queue the platform sends to, with the dead-letter queue behind it. */
  public get queuePairs(): ReadonlyArray<{ readonly name: string } & QueuePair> {
    return [
      { name: 'jobs', ...this.jobs },
      { name: 'webhooks', ...this.webhooks },
      { name: 'ocr', ...this.ocrQueue },
      { name: 'exports', ...this.exports },
      { name: 'responses', ...this.responses },
      { name: 'order-events', ...this.orderEvents },
    ];
  }
}

/**
 * A stack that uses DataStack's table, buckets, queues or secrets. Its references to them are strong
 * (export/import): the data stack cannot drop a resource such a stack still uses.
 */
export class DataUserStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
  }
}
