/**
 * What the functions of one stack share: the stage settings, the data resources a grant can point at,
 * and the per-stack facts some grants and variables need (the front door, the gateway's key targets).
 */
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { KeyClass } from '../../functions/kernel/http/api-gateway-contract';
import type { StageConfig } from '../stage-config';
import type { ConsoleIdentityTargets } from './console-identity';

/** What every function shares: the stage settings and the data resources a grant can point at. */
export interface FunctionContext {
  readonly config: StageConfig;
  readonly table: dynamodb.ITableV2;
  /** Literal bucket name; the bucket ARN is derived from it so IAM resources stay exact strings. */
  readonly uploadsBucketName: string;
  readonly jobsQueue: sqs.IQueue;
  readonly webhooksQueue: sqs.IQueue;
  /** The chunks of bulk snapshot exports. */
  readonly exportsQueue: sqs.IQueue;
  readonly responsesQueue: sqs.IQueue;
  /** Area C's order events to the agent platforms. */
  readonly orderEventsQueue: sqs.IQueue;
  /** Encrypts webhook signing secrets; reached only through the `secrets:*` grants. */
  readonly webhookSecretsKey: kms.IKey;
  /**
   * The function sits behind the CloudFront front door (whose origins refuse anything else), so it
   * may take the client address from CloudFront's headers. @default false
   */
  readonly trustViewerAddress?: boolean;
  /** What the `apiKeys:manage` grant points at: the usage plans and the area APIs with key authorizers. */
  readonly gateway?: GatewayTargets;
  /** What the `ocr:start` grant points at: Textract's completion topic and the role Textract publishes with. */
  readonly ocr?: OcrTargets;
  /** What the `payments:charge` grant points at: the secret holding the Stripe API key. */
  readonly paymentSecret?: secretsmanager.ISecret;
  /** What the `identity:read` grant points at: the console's issuer, managed-login domain and client secret. */
  readonly consoleIdentity?: ConsoleIdentityTargets;
}

export interface OcrTargets {
  readonly topicArn: string;
  readonly publishRoleArn: string;
}

/** The context of a stack's functions: the stage and the shared data resources, plus per-stack extras. */
export function functionContextOf(
  config: StageConfig,
  data: Pick<FunctionContext, 'table' | 'uploadsBucketName' | 'webhookSecretsKey' | 'ocr' | 'paymentSecret'> & {
    readonly consoleIdentity?: { readonly targets: ConsoleIdentityTargets };
    readonly jobs: { readonly queue: sqs.IQueue };
    readonly webhooks: { readonly queue: sqs.IQueue };
    readonly exports: { readonly queue: sqs.IQueue };
    readonly responses: { readonly queue: sqs.IQueue };
    readonly orderEvents: { readonly queue: sqs.IQueue };
  },
  extras: Pick<FunctionContext, 'trustViewerAddress' | 'gateway'> = {},
): FunctionContext {
  return {
    config,
    table: data.table,
    uploadsBucketName: data.uploadsBucketName,
    jobsQueue: data.jobs.queue,
    webhooksQueue: data.webhooks.queue,
    exportsQueue: data.exports.queue,
    responsesQueue: data.responses.queue,
    orderEventsQueue: data.orderEvents.queue,
    webhookSecretsKey: data.webhookSecretsKey,
    ...(data.ocr ? { ocr: data.ocr } : {}),
    ...(data.paymentSecret ? { paymentSecret: data.paymentSecret } : {}),
    ...(data.consoleIdentity ? { consoleIdentity: data.consoleIdentity.targets } : {}),
    ...extras,
  };
}

/** The usage plans a new gateway key joins, and the area stages whose authorizer caches a revoke flushes. */
export interface GatewayTargets {
  readonly usagePlans: Partial<Record<KeyClass, string>>;
  readonly authorizerStages: readonly { readonly restApiId: string; readonly stageName: string }[];
}
