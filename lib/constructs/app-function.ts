/**
 * The one construct that owns every Lambda default of the platform: runtime, architecture, bundle
 * format, tracing, logs, environment, and the translation of a route's `Grant`s into IAM permissions.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Fn, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { RegionInfo } from 'aws-cdk-lib/region-info';
import { Construct } from 'constructs';
import { ENV } from '../../functions/env';
import type { Grant } from '../../functions/routes';
import { TABLE_DESIGN } from '../../functions/table-design';
import type { FunctionContext } from './function-context';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** nodejs22.x by project decision; changing the runtime of every function is this one line. */
export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_22_X;

/** CommonJS dependencies call `require`, which an ESM bundle lacks unless it is recreated. */
const ESM_REQUIRE_SHIM = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

/** The purpose every webhook-secret ciphertext is bound to (functions/adapters/kms-secret-sealer.ts). */
const WEBHOOK_SECRET_PURPOSE = 'webhook-signing-secret';

export const SERVICE_NAME = 'platform-api';

/** The folder under functions/ that holds an entry point. */
export type FunctionKind = 'http' | 'queue' | 'jobs' | 'authorizers';

/** Path of a Lambda entry module: functions/<kind>/<handler>.handler.ts. */
export function handlerEntry(kind: FunctionKind, handler: string): string {
  return path.join(REPO_ROOT, 'functions', kind, `${handler}.handler.ts`);
}

export interface AppFunctionProps {
  readonly context: FunctionContext;
  readonly kind: FunctionKind;
  /** Module name under functions/<kind>, without `.handler.ts`. */
  readonly handler: string;
  /** Everything the function may touch beyond its own logs and traces. */
  readonly grants: readonly Grant[];
  /** @default 10 */
  readonly timeoutSeconds?: number;
  /** @default 1024: CPU scales with memory, and API latency matters more than the few cents. */
  readonly memoryMb?: number;
  /** Caps this function's share of the account's concurrency. @default - unreserved */
  readonly reservedConcurrency?: number;
}

const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

export class AppFunction extends Construct {
  public readonly function: NodejsFunction;
  public readonly role: iam.Role;
  public readonly logGroup: logs.LogGroup;
  private readonly context: FunctionContext;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    this.context = props.context;
    const { config, table, jobsQueue } = props.context;

    const entry = handlerEntry(props.kind, props.handler);
    if (!existsSync(entry)) {
      throw new Error(`Lambda entry ${path.relative(REPO_ROOT, entry)} does not exist (id ${id})`);
    }

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: config.logRetention,
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    // An own role instead of the default one, which carries the AWS managed basic-execution policy
    // (logs on every log group); this one may write to its own log group only.
    this.role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(this.role);

    type GrantScoped = typeof ENV.webhooksQueueUrl | typeof ENV.webhookSecretsKeyArn | typeof ENV.gatewayUsagePlans | typeof ENV.gatewayAuthorizerStages;
    const environment: Record<Exclude<(typeof ENV)[keyof typeof ENV], typeof ENV.openAiBaseUrl | typeof ENV.openAiApiKey | GrantScoped>, string> & Record<string, string> = {
      [ENV.stage]: config.stage,
      [ENV.tableName]: table.tableName,
      [ENV.bucketName]: props.context.uploadsBucketName,
      [ENV.jobsQueueUrl]: jobsQueue.queueUrl,
      [ENV.visibilityDelayMs]: String(config.functionSettings.visibilityDelayMs),
      [ENV.anonRetentionDays]: String(config.functionSettings.anonRetentionDays),
      [ENV.emptySessionMaxAgeHours]: String(config.functionSettings.emptySessionMaxAgeHours),
      [ENV.appDeletionBatchSize]: String(config.functionSettings.appDeletionBatchSize),
      [ENV.serviceName]: SERVICE_NAME,
      [ENV.metricsNamespace]: `PlatformApi/${config.stage}`,
      // Apps choose `bedrock:<model id>` on AWS; the grant `model:invoke` gives the role access.
      [ENV.bedrockEnabled]: 'true',
      [ENV.trustViewerAddress]: props.context.trustViewerAddress ? 'true' : 'false',
      ...(config.openAiBaseUrl ? { [ENV.openAiBaseUrl]: config.openAiBaseUrl } : {}),
    };

    this.function = new NodejsFunction(this, 'Function', {
      entry,
      handler: 'handler',
      description: `${props.kind}/${props.handler}`,
      runtime: FUNCTION_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memoryMb ?? 1024,
      timeout: Duration.seconds(props.timeoutSeconds ?? 10),
      reservedConcurrentExecutions: props.reservedConcurrency,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel.INFO,
      systemLogLevelV2: lambda.SystemLogLevel.WARN,
      tracing: lambda.Tracing.ACTIVE,
      environment: { ...environment, NODE_OPTIONS: '--enable-source-maps' },
      projectRoot: REPO_ROOT,
      depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
      bundling: {
        format: OutputFormat.ESM,
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_SHIM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        sourceMapMode: SourceMapMode.DEFAULT,
        sourcesContent: false,
        // The SDK version the tests ran against (pinned in package-lock.json), not whichever one the
        // runtime happens to ship.
        bundleAwsSDK: true,
        logLevel: LogLevel.ERROR,
      },
    });

    for (const grant of props.grants) this.grant(grant);

    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Active X-Ray tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions.',
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'nodejs22.x is a supported, non-deprecated runtime chosen by the project (docs/adr/0006); FUNCTION_RUNTIME switches every function at once.',
    });
  }

  /** Turns one route grant into the narrowest IAM statement that serves it (and env where needed). */
  public grant(grant: Grant): void {
    const { table, jobsQueue, webhooksQueue } = this.context;
    switch (grant) {
      case 'table:read':
        // Exact index ARNs instead of `index/*`: the table design names every index.
        this.allow(TABLE_READ, [
          table.tableArn,
          ...TABLE_DESIGN.indexes.map((index) => `${table.tableArn}/index/${index.name}`),
        ]);
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
      case 'webhooks:send':
        this.allow(['sqs:SendMessage'], [webhooksQueue.queueArn]);
        this.function.addEnvironment(ENV.webhooksQueueUrl, webhooksQueue.queueUrl);
        return;
      case 'secrets:seal':
        this.allowWebhookSecrets('kms:Encrypt');
        return;
      case 'secrets:open':
        this.allowWebhookSecrets('kms:Decrypt');
        return;
      case 'model:invoke':
        this.allow(['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'], this.bedrockModelArns());
        return;
      case 'gatewayKeys:manage':
        this.allowGatewayKeys();
        return;
      default: {
        const unknown: never = grant;
        throw new Error(`Unknown grant ${String(unknown)}`);
      }
    }
  }

  /**
   * API keys per platform key (functions/adapters/apigateway-gateway-keys.ts): create one and add it to
   * its usage plan, find and delete it, and flush the key authorizers' caches of the area APIs.
   */
  private allowGatewayKeys(): void {
    const gateway = this.context.gateway;
    if (!gateway) throw new Error('the gatewayKeys:manage grant needs FunctionContext.gateway');
    const { region } = Stack.of(this);
    const partition = RegionInfo.get(region).partition ?? 'aws';
    const apigw = (path: string) => `arn:${partition}:apigateway:${region}::${path}`;
    const apiKeys = apigw('/apikeys/*');
    this.allow(['apigateway:POST', 'apigateway:GET'], [apigw('/apikeys')]);
    this.allow(['apigateway:DELETE'], [apiKeys]);
    this.allow(['apigateway:POST'], Object.values(gateway.usagePlans).map((id) => apigw(`/usageplans/${id}/keys`)));
    this.allow(['apigateway:DELETE'], gateway.authorizerStages.map((s) => apigw(`/restapis/${s.restApiId}/stages/${s.stageName}/cache/authorizers`)));
    Validations.of(this.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${apiKeys}]`,
      reason: 'API keys get their ids from API Gateway when the admin API creates them (one per platform key), so the revoke path deletes keys by id under /apikeys/.',
    });
    this.function.addEnvironment(ENV.gatewayUsagePlans, Stack.of(this).toJsonString(gateway.usagePlans));
    this.function.addEnvironment(ENV.gatewayAuthorizerStages, Fn.join(',', gateway.authorizerStages.map((s) => `${s.restApiId}/${s.stageName}`)));
  }

  private allow(actions: string[], resources: string[]): void {
    this.role.addToPrincipalPolicy(new iam.PolicyStatement({ actions, resources }));
  }

  /** One KMS action on the one key, and only for ciphertexts bound to the webhook-secret purpose. */
  private allowWebhookSecrets(action: 'kms:Encrypt' | 'kms:Decrypt'): void {
    const key = this.context.webhookSecretsKey;
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [action],
        resources: [key.keyArn],
        conditions: { StringEquals: { 'kms:EncryptionContext:purpose': WEBHOOK_SECRET_PURPOSE } },
      }),
    );
    this.function.addEnvironment(ENV.webhookSecretsKeyArn, key.keyArn);
  }

  /**
   * A literal ARN (partition looked up from the region), so the cdk-nag acknowledgement below can name
   * the exact resource whatever the partition-literal feature flag says.
   */
  private bucketArn(): string {
    const { region } = Stack.of(this);
    const partition = Token.isUnresolved(region) ? undefined : RegionInfo.get(region).partition;
    if (!partition) {
      throw new Error('Bucket grants need a stack with a concrete region (see bin/app.ts)');
    }
    return `arn:${partition}:s3:::${this.context.uploadsBucketName}`;
  }

  /** Foundation models and the account's inference profiles: the model is an app setting chosen at run time. */
  private bedrockModelArns(): string[] {
    const { region, account } = Stack.of(this);
    const partition = RegionInfo.get(region).partition ?? 'aws';
    const arns = [`arn:${partition}:bedrock:*::foundation-model/*`, `arn:${partition}:bedrock:${region}:${account}:inference-profile/*`];
    for (const arn of arns) {
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${arn}]`,
        reason: "An app's model is a setting chosen at run time (bedrock:<model id>); cross-region inference profiles route to foundation models in other regions.",
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
