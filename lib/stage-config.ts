/**
 * Per-stage settings of the AWS deployment. `dev` is the disposable stage; every other stage name
 * (staging, prod, a developer's own) is treated as one that holds data worth keeping.
 */
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ENV_DEFAULTS } from '../functions/kernel/env';

export interface StageConfig {
  /** Stage name: part of stack, bucket and alias names, and the STAGE variable of every function. */
  readonly stage: string;
  /**
   * Stateful resources (table, buckets, keys, log groups) outlive the stack and the table refuses
   * deletion. Off only for `dev`, so a dev stack can be destroyed and recreated at will.
   */
  readonly retainData: boolean;
  readonly logRetention: RetentionDays;
  /** Stage-wide API Gateway throttle: a guard for the account quota, not the spec's limits (docs/design.md §5). */
  readonly apiThrottle: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * Requests per client IP per 5 minutes before AWS WAF blocks. Set well above the spec's tightest
   * per-IP limit (200/min = 1,000 per 5 min) because many API keys can sit behind one NAT address;
   * the exact limits live in the application.
   */
  readonly wafRequestsPerIpPer5Min: number;
  /** Values of the tunable function variables of functions/kernel/env.ts. */
  readonly functionSettings: {
    readonly visibilityDelayMs: number;
    readonly anonRetentionDays: number;
    readonly emptySessionMaxAgeHours: number;
    readonly appDeletionBatchSize: number;
  };
  /** Address subscribed to the alarm topic; without it the topic has no subscriber yet. */
  readonly alarmEmail?: string;
  /** An OpenAI-compatible endpoint (no key: e.g. a model server inside the VPC) for `openai:<model>` apps. */
  readonly openAiBaseUrl?: string;
}

/** Lowercase, starts with a letter, short enough for the S3 bucket name it is part of. */
const STAGE_NAME = /^[a-z][a-z0-9-]{0,11}$/;

export interface StageOptions {
  readonly alarmEmail?: string;
  readonly openAiBaseUrl?: string;
}

export function stageConfig(stage: string, options: StageOptions = {}): StageConfig {
  if (!STAGE_NAME.test(stage)) {
    throw new Error(`Invalid stage "${stage}": use 1-12 lowercase letters, digits or hyphens, starting with a letter`);
  }
  const isDev = stage === 'dev';
  return {
    stage,
    retainData: !isDev,
    logRetention: isDev ? RetentionDays.ONE_WEEK : RetentionDays.THREE_MONTHS,
    apiThrottle: isDev ? { rateLimit: 50, burstLimit: 100 } : { rateLimit: 1_000, burstLimit: 2_000 },
    wafRequestsPerIpPer5Min: 6_000,
    functionSettings: {
      visibilityDelayMs: ENV_DEFAULTS.visibilityDelayMsAws,
      anonRetentionDays: ENV_DEFAULTS.anonRetentionDays,
      emptySessionMaxAgeHours: ENV_DEFAULTS.emptySessionMaxAgeHours,
      appDeletionBatchSize: ENV_DEFAULTS.appDeletionBatchSize,
    },
    ...(options.alarmEmail ? { alarmEmail: options.alarmEmail } : {}),
    ...(options.openAiBaseUrl ? { openAiBaseUrl: options.openAiBaseUrl } : {}),
  };
}
