/**
 * The translation of a route's `Grant`s into the narrowest IAM statements that serve them (and the
 * variables some grants set), for any role: the Lambda functions (AppFunction) and the upload
 * service's Fargate task (UploadService) get exactly the same permissions for the same grants.
 */
import { Fn, Stack, Token, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { RegionInfo } from 'aws-cdk-lib/region-info';
import { ENV } from '../../functions/kernel/env';
import type { Grant } from '../../functions/kernel/route-vocabulary';
import { TABLE_DESIGN } from '../../functions/kernel/adapters/table-design';
import type { FunctionContext } from './function-context';

export const SERVICE_NAME = 'platform-api';

/** The purpose every webhook-secret ciphertext is bound to (functions/kernel/adapters/kms-secret-sealer.ts). */
const WEBHOOK_SECRET_PURPOSE = 'webhook-signing-secret';
/** The purpose a console session's sealed tokens are bound to (the same module's `SEAL_PURPOSES`). */
const CONSOLE_SESSION_PURPOSE = 'console-session-tokens';

const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

type GrantScoped =
  | typeof ENV.webhooksQueueUrl
  | typeof ENV.exportsQueueUrl
  | typeof ENV.responsesQueueUrl
  | typeof ENV.orderEventsQueueUrl
  | typeof ENV.webhookSecretsKeyArn
  | typeof ENV.gatewayUsagePlans
  | typeof ENV.gatewayAuthorizerStages
  | typeof ENV.ocrTopicArn
  | typeof ENV.ocrRoleArn
  | typeof ENV.paymentSecretArn
  | typeof ENV.consoleIssuerUrl
  | typeof ENV.consoleAuthBaseUrl
  | typeof ENV.consoleClientSecret;

/** The variables every function and the upload service start from (functions/kernel/env.ts checks them). */
export function baseEnvironment(
  context: FunctionContext,
): Record<Exclude<(typeof ENV)[keyof typeof ENV], typeof ENV.openAiBaseUrl | typeof ENV.openAiApiKey | typeof ENV.publicBaseUrl | GrantScoped>, string> &
  Record<string, string> {
  const { config, table, jobsQueue } = context;
  return {
    [ENV.stage]: config.stage,
    [ENV.tableName]: table.tableName,
    [ENV.bucketName]: context.uploadsBucketName,
    [ENV.jobsQueueUrl]: jobsQueue.queueUrl,
    [ENV.visibilityDelayMs]: String(config.functionSettings.visibilityDelayMs),
    [ENV.anonRetentionDays]: String(config.functionSettings.anonRetentionDays),
    [ENV.emptySessionMaxAgeHours]: String(config.functionSettings.emptySessionMaxAgeHours),
    [ENV.appDeletionBatchSize]: String(config.functionSettings.appDeletionBatchSize),
    [ENV.serviceName]: SERVICE_NAME,
    [ENV.metricsNamespace]: `PlatformApi/${config.stage}`,
    // Apps choose `bedrock:<model id>` on AWS; the grant `model:invoke` gives the role access.
    [ENV.bedrockEnabled]: 'true',
    [ENV.trustViewerAddress]: context.trustViewerAddress ? 'true' : 'false',
    ...(config.openAiBaseUrl ? { [ENV.openAiBaseUrl]: config.openAiBaseUrl } : {}),
  };
}

export class GrantPolicy {
  constructor(
    private readonly role: iam.IRole & iam.IGrantable,
    private readonly context: FunctionContext,
    private readonly setEnv: (name: string, value: string) => void,
  ) {}

  /** Turns one route grant into the narrowest IAM statement that serves it (and env where needed). */
  public grant(grant: Grant): void {
    const { table, jobsQueue, webhooksQueue, exportsQueue, responsesQueue, orderEventsQueue } = this.context;
    switch (grant) {
      case 'table:read':
        // Exact index ARNs instead of `index/*`: the table design names every index.
        this.allow(TABLE_READ, [table.tableArn, ...TABLE_DESIGN.indexes.map((index) => `${table.tableArn}/index/${index.name}`)]);
        return;
      case 'table:write':
        this.allow(TABLE_WRITE, [table.tableArn]);
        return;
      case 'bucket:read':
        // ListBucket makes a missing key a 404 (NoSuchKey) instead of a 403.
        this.allow(['s3:ListBucket'], [this.bucketArn()]);
        this.allow(['s3:GetObject'], [this.bucketObjectsArn()]);
        return;
      case 'bucket:write':
        this.allow(['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'], [this.bucketObjectsArn()]);
        return;
      case 'jobs:send':
        this.allow(['sqs:SendMessage'], [jobsQueue.queueArn]);
        return;
      case 'exports:send':
        this.allow(['sqs:SendMessage'], [exportsQueue.queueArn]);
        this.setEnv(ENV.exportsQueueUrl, exportsQueue.queueUrl);
        return;
      case 'responses:send':
        this.allow(['sqs:SendMessage'], [responsesQueue.queueArn]);
        this.setEnv(ENV.responsesQueueUrl, responsesQueue.queueUrl);
        return;
      case 'order-events:send':
        this.allow(['sqs:SendMessage'], [orderEventsQueue.queueArn]);
        this.setEnv(ENV.orderEventsQueueUrl, orderEventsQueue.queueUrl);
        return;
      case 'webhooks:send':
        this.allow(['sqs:SendMessage'], [webhooksQueue.queueArn]);
        this.setEnv(ENV.webhooksQueueUrl, webhooksQueue.queueUrl);
        return;
      case 'secrets:seal':
        this.allowSealing('kms:Encrypt', WEBHOOK_SECRET_PURPOSE);
        return;
      case 'secrets:open':
        this.allowSealing('kms:Decrypt', WEBHOOK_SECRET_PURPOSE);
        return;
      case 'sessions:seal':
        this.allowSealing('kms:Encrypt', CONSOLE_SESSION_PURPOSE);
        return;
      case 'sessions:open':
        this.allowSealing('kms:Decrypt', CONSOLE_SESSION_PURPOSE);
        return;
      case 'model:invoke':
        this.allow(['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'], this.bedrockModelArns());
        return;
      case 'apiKeys:manage':
        this.allowApiKeys();
        return;
      case 'ocr:start':
        this.allowOcrStart();
        return;
      case 'ocr:read':
        this.allowTextract('textract:GetDocumentTextDetection');
        return;
      case 'payments:charge': {
        // The one secret; it is encrypted with the account's aws/secretsmanager key, which needs no grant.
        const secret = this.context.paymentSecret;
        if (!secret) throw new Error('the payments:charge grant needs FunctionContext.paymentSecret');
        this.allow(['secretsmanager:GetSecretValue'], [secret.secretArn]);
        this.setEnv(ENV.paymentSecretArn, secret.secretArn);
        return;
      }
      case 'identity:read':
        this.allowConsoleIdentity();
        return;
      default: {
        const unknown: never = grant;
        throw new Error(`Unknown grant ${String(unknown)}`);
      }
    }
  }

  /**
   * API keys per platform key (functions/tenancy/adapters/api-gateway-key-registry.ts): create one and add it to
   * its usage plan, find and delete it, and flush the key authorizers' caches of the area APIs.
   */
  private allowApiKeys(): void {
    const gateway = this.context.gateway;
    if (!gateway) throw new Error('the apiKeys:manage grant needs FunctionContext.gateway');
    const { region } = Stack.of(this.role);
    const partition = RegionInfo.get(region).partition ?? 'aws';
    const apigw = (path: string) => `arn:${partition}:apigateway:${region}::${path}`;
    const apiKeyPaths = apigw('/apikeys/*');
    this.allow(['apigateway:POST', 'apigateway:GET'], [apigw('/apikeys')]);
    this.allow(['apigateway:DELETE'], [apiKeyPaths]);
    this.allow(
      ['apigateway:POST'],
      Object.values(gateway.usagePlans).map((id) => apigw(`/usageplans/${id}/keys`)),
    );
    this.allow(
      ['apigateway:DELETE'],
      gateway.authorizerStages.map((s) => apigw(`/restapis/${s.restApiId}/stages/${s.stageName}/cache/authorizers`)),
    );
    Validations.of(this.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${apiKeyPaths}]`,
      reason:
        'API keys get their ids from API Gateway when the admin API creates them (one per platform key), so the revoke path deletes keys by id under /apikeys/.',
    });
    this.setEnv(ENV.gatewayUsagePlans, Stack.of(this.role).toJsonString(gateway.usagePlans));
    this.setEnv(
      ENV.gatewayAuthorizerStages,
      Fn.join(
        ',',
        gateway.authorizerStages.map((s) => `${s.restApiId}/${s.stageName}`),
      ),
    );
  }

  /**
   * The console client's secret has a fixed name (it is created in the edge stack, after the area
   * stacks), so the statement names it with the six-character suffix Secrets Manager appends.
   */
  private allowConsoleIdentity(): void {
    const identity = this.context.consoleIdentity;
    if (!identity) throw new Error('the identity:read grant needs FunctionContext.consoleIdentity');
    const { region, account } = Stack.of(this.role);
    const partition = RegionInfo.get(region).partition ?? 'aws';
    this.allow(['secretsmanager:GetSecretValue'], [`arn:${partition}:secretsmanager:${region}:${account}:secret:${identity.clientSecretName}-??????`]);
    this.setEnv(ENV.consoleIssuerUrl, identity.issuerUrl);
    this.setEnv(ENV.consoleAuthBaseUrl, identity.authBaseUrl);
    this.setEnv(ENV.consoleClientSecret, identity.clientSecretName);
  }

  private allow(actions: string[], resources: string[]): void {
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions, resources }));
  }

  /** Textract's asynchronous text detection names no resource: its actions take `*` only. */
  private allowTextract(action: string): void {
    this.allow([action], ['*']);
    Validations.of(this.role).acknowledge({
      id: `AwsSolutions-IAM5[Action::${action}]`,
      reason: 'Textract text detection has no resource-level permissions; the documents it reads are limited by the S3 grants of the same role.',
    });
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Textract text detection (and X-Ray on the functions) support no resource-level permissions.',
    });
  }

  /**
   * Start OCR of an uploaded PDF: Textract reads the object with this role's S3 access (`bucket:read`)
   * and announces the end on the OCR topic through the publishing role, which this role may pass to
   * Textract and to nothing else.
   */
  private allowOcrStart(): void {
    const ocr = this.context.ocr;
    if (!ocr) throw new Error('the ocr:start grant needs FunctionContext.ocr');
    this.allowTextract('textract:StartDocumentTextDetection');
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [ocr.publishRoleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'textract.amazonaws.com' } },
      }),
    );
    this.setEnv(ENV.ocrTopicArn, ocr.topicArn);
    this.setEnv(ENV.ocrRoleArn, ocr.publishRoleArn);
  }

  /** One KMS action on the one key, and only for ciphertexts bound to one purpose. */
  private allowSealing(action: 'kms:Encrypt' | 'kms:Decrypt', purpose: string): void {
    const key = this.context.webhookSecretsKey;
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [action],
        resources: [key.keyArn],
        conditions: { StringEquals: { 'kms:EncryptionContext:purpose': purpose } },
      }),
    );
    this.setEnv(ENV.webhookSecretsKeyArn, key.keyArn);
  }

  /**
   * A literal ARN (partition looked up from the region), so the cdk-nag acknowledgement below can name
   * the exact resource whatever the partition-literal feature flag says.
   */
  private bucketArn(): string {
    const { region } = Stack.of(this.role);
    const partition = Token.isUnresolved(region) ? undefined : RegionInfo.get(region).partition;
    if (!partition) {
      throw new Error('Bucket grants need a stack with a concrete region (see bin/app.ts)');
    }
    return `arn:${partition}:s3:::${this.context.uploadsBucketName}`;
  }

  /** Foundation models and the account's inference profiles: the model is an app setting chosen at run time. */
  private bedrockModelArns(): string[] {
    const { region, account } = Stack.of(this.role);
    const partition = RegionInfo.get(region).partition ?? 'aws';
    const arns = [`arn:${partition}:bedrock:*::foundation-model/*`, `arn:${partition}:bedrock:${region}:${account}:inference-profile/*`];
    for (const arn of arns) {
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${arn}]`,
        reason:
          "An app's model is a setting chosen at run time (bedrock:<model id>); cross-region inference profiles route to foundation models in other regions.",
      });
    }
    return arns;
  }

  private bucketObjectsArn(): string {
    const objects = `${this.bucketArn()}/*`;
    Validations.of(this.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${objects}]`,
      reason: 'Object keys are generated per upload, so access is granted to the objects of the one uploads bucket.',
    });
    return objects;
  }
}
