/**
 * Environment variables of every function, and the one schema that checks them at cold start.
 * The CDK construct that owns function defaults sets them; the local process sets them from its own
 * configuration. A missing or malformed variable fails the cold start instead of hiding behind a default.
 */
import * as z from 'zod';

export const ENV = {
  stage: 'STAGE',
  tableName: 'TABLE_NAME',
  bucketName: 'BUCKET_NAME',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
  /** Set only on functions granted `webhooks:send`. */
  webhooksQueueUrl: 'WEBHOOKS_QUEUE_URL',
  /** Set only on functions granted `secrets:seal` or `secrets:open`. */
  webhookSecretsKeyArn: 'WEBHOOK_SECRETS_KEY_ARN',
  visibilityDelayMs: 'VISIBILITY_DELAY_MS',
  anonRetentionDays: 'ANON_RETENTION_DAYS',
  emptySessionMaxAgeHours: 'EMPTY_SESSION_MAX_AGE_HOURS',
  appDeletionBatchSize: 'APP_DELETION_BATCH_SIZE',
  openAiBaseUrl: 'OPENAI_BASE_URL',
  openAiApiKey: 'OPENAI_API_KEY',
  bedrockEnabled: 'BEDROCK_ENABLED',
  /** Set only on functions granted `gatewayKeys:manage`: JSON `{ "<KeyClass>": "<usage plan id>" }`. */
  gatewayUsagePlans: 'GATEWAY_USAGE_PLANS',
  /** Set only with `gatewayKeys:manage`: `<restApiId>/<stage>` of every API whose authorizer cache a revoke flushes, comma-separated. */
  gatewayAuthorizerStages: 'GATEWAY_AUTHORIZER_STAGES',
  /**
   * `true` only on functions behind the CloudFront front door, whose origin only accepts requests that came
   * through it: the client address is then CloudFront's `CloudFront-Viewer-Address`, not the socket peer.
   */
  trustViewerAddress: 'TRUST_VIEWER_ADDRESS',
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  metricsNamespace: 'POWERTOOLS_METRICS_NAMESPACE',
} as const;

const positiveInt = z.coerce.number().int().positive();

export const envSchema = z.object({
  [ENV.stage]: z.string().min(1),
  [ENV.tableName]: z.string().min(1),
  [ENV.bucketName]: z.string().min(1),
  [ENV.jobsQueueUrl]: z.url(),
  [ENV.webhooksQueueUrl]: z.url().optional(),
  [ENV.webhookSecretsKeyArn]: z.string().startsWith('arn:').optional(),
  [ENV.visibilityDelayMs]: z.coerce.number().int().min(0),
  [ENV.anonRetentionDays]: positiveInt,
  [ENV.emptySessionMaxAgeHours]: positiveInt,
  [ENV.appDeletionBatchSize]: positiveInt.max(100),
  /** An OpenAI-compatible endpoint for apps whose model is `openai:<model>`; absent: not offered. */
  [ENV.openAiBaseUrl]: z.url().optional(),
  [ENV.openAiApiKey]: z.string().min(1).optional(),
  /** `true` on AWS: apps may use `bedrock:<model id>` through the function's role. */
  [ENV.bedrockEnabled]: z.enum(['true', 'false']).default('false'),
  [ENV.gatewayUsagePlans]: z
    .string()
    .transform((raw, ctx) => {
      try {
        return z.record(z.enum(['orgKey', 'chatKey', 'acpKey']), z.string().min(1)).parse(JSON.parse(raw));
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not a JSON object of key class to usage plan id' });
        return z.NEVER;
      }
    })
    .optional(),
  [ENV.gatewayAuthorizerStages]: z
    .string()
    .regex(/^[a-z0-9]+\/[A-Za-z0-9_-]+(,[a-z0-9]+\/[A-Za-z0-9_-]+)*$/)
    .transform((raw) => raw.split(',').map((pair) => ({ restApiId: pair.split('/')[0]!, stageName: pair.split('/')[1]! })))
    .optional(),
  [ENV.trustViewerAddress]: z.enum(['true', 'false']).default('false'),
});

export type EnvVars = z.infer<typeof envSchema>;

/** Variables a grant sets (lib/constructs/app-function.ts), present only on the functions that hold it. */
export const GRANT_SCOPED_ENV: readonly string[] = [ENV.webhooksQueueUrl, ENV.webhookSecretsKeyArn, ENV.gatewayUsagePlans, ENV.gatewayAuthorizerStages];

/** Defaults an operator may override; the CDK stage and the local process start from these. */
export const ENV_DEFAULTS = {
  /** On AWS: GSI reads are eventually consistent; 30 s covers propagation with a wide margin. */
  visibilityDelayMsAws: 30_000,
  /** Locally dynalite updates indexes synchronously; 2 s still covers a slow writer in tests. */
  visibilityDelayMsLocal: 2_000,
  anonRetentionDays: 30,
  emptySessionMaxAgeHours: 24,
  appDeletionBatchSize: 25,
} as const;
