/**
 * Environment variables of every function, and the one schema that checks them at cold start.
 * The CDK construct that owns function defaults sets them; the local process sets them from its own
 * configuration. A missing or malformed variable fails the cold start instead of hiding behind a default.
 */
import type { KeyClass } from './domain/auth-messages';

export const ENV = {
  stage: 'STAGE',
  tableName: 'TABLE_NAME',
  bucketName: 'BUCKET_NAME',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
  /** Set only on functions granted `webhooks:send`. */
  webhooksQueueUrl: 'WEBHOOKS_QUEUE_URL',
  exportsQueueUrl: 'EXPORTS_QUEUE_URL',
  responsesQueueUrl: 'RESPONSES_QUEUE_URL',
  /** Set only on functions granted `order-events:send`. */
  orderEventsQueueUrl: 'ORDER_EVENTS_QUEUE_URL',
  /** Set only on functions granted `secrets:seal` or `secrets:open`. */
  webhookSecretsKeyArn: 'WEBHOOK_SECRETS_KEY_ARN',
  visibilityDelayMs: 'VISIBILITY_DELAY_MS',
  anonRetentionDays: 'ANON_RETENTION_DAYS',
  emptySessionMaxAgeHours: 'EMPTY_SESSION_MAX_AGE_HOURS',
  appDeletionBatchSize: 'APP_DELETION_BATCH_SIZE',
  openAiBaseUrl: 'OPENAI_BASE_URL',
  openAiApiKey: 'OPENAI_API_KEY',
  bedrockEnabled: 'BEDROCK_ENABLED',
  /** Set only on functions granted `apiKeys:manage`: JSON `{ "<KeyClass>": "<usage plan id>" }`. */
  gatewayUsagePlans: 'GATEWAY_USAGE_PLANS',
  /** Set only with `apiKeys:manage`: `<restApiId>/<stage>` of every API whose authorizer cache a revoke flushes, comma-separated. */
  gatewayAuthorizerStages: 'GATEWAY_AUTHORIZER_STAGES',
  /**
   * `true` only on functions behind the CloudFront front door, whose origin only accepts requests that came
   * through it: the client address is then the front door's `X-Viewer-Ip`, not the socket peer.
   */
  trustViewerAddress: 'TRUST_VIEWER_ADDRESS',
  /**
   * The `{base_url}` clients use (`https://api.example.com`), for documents that name absolute URLs (ACP
   * discovery, agent cards, the feed's links). Unset on AWS, where the front door names the viewer's
   * host; the local server sets it to its own address unless `PUBLIC_BASE_URL` says otherwise. Never
   * taken from a request's `Host`, which is the client's word.
   */
  publicBaseUrl: 'PUBLIC_BASE_URL',
  /** Set only with `ocr:start`: the SNS topic Textract announces completions on (raw delivery to the OCR queue). */
  ocrTopicArn: 'OCR_TOPIC_ARN',
  /** Set only with `ocr:start`: the role Textract assumes to publish to that topic. */
  ocrRoleArn: 'OCR_ROLE_ARN',
  /** Set only with `payments:charge`: the Secrets Manager secret holding the Stripe API key (read on the first charge). */
  paymentSecretArn: 'PAYMENT_SECRET_ARN',
  /** Set only with `identity:read`: the OpenID issuer of the console's sign-in (its discovery document and JWKS hang off it). */
  consoleIssuerUrl: 'CONSOLE_ISSUER_URL',
  /** Set only with `identity:read`: the base URL of the issuer's login pages (Cognito managed login). */
  consoleAuthBaseUrl: 'CONSOLE_AUTH_BASE_URL',
  /** Set only with `identity:read`: the Secrets Manager secret (name or ARN) holding `{ client_id, client_secret }` of the console's client. */
  consoleClientSecret: 'CONSOLE_CLIENT_SECRET',
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  metricsNamespace: 'POWERTOOLS_METRICS_NAMESPACE',
} as const;

export interface EnvVars {
  readonly STAGE: string;
  readonly TABLE_NAME: string;
  readonly BUCKET_NAME: string;
  readonly JOBS_QUEUE_URL: string;
  readonly WEBHOOKS_QUEUE_URL?: string;
  readonly EXPORTS_QUEUE_URL?: string;
  readonly RESPONSES_QUEUE_URL?: string;
  readonly ORDER_EVENTS_QUEUE_URL?: string;
  readonly WEBHOOK_SECRETS_KEY_ARN?: string;
  readonly VISIBILITY_DELAY_MS: number;
  readonly ANON_RETENTION_DAYS: number;
  readonly EMPTY_SESSION_MAX_AGE_HOURS: number;
  readonly APP_DELETION_BATCH_SIZE: number;
  /** An OpenAI-compatible endpoint for apps whose model is `openai:<model>`; absent: not offered. */
  readonly OPENAI_BASE_URL?: string;
  readonly OPENAI_API_KEY?: string;
  /** `true` on AWS: apps may use `bedrock:<model id>` through the function's role. */
  readonly BEDROCK_ENABLED: 'true' | 'false';
  readonly GATEWAY_USAGE_PLANS?: Partial<Record<KeyClass, string>>;
  readonly GATEWAY_AUTHORIZER_STAGES?: readonly { readonly restApiId: string; readonly stageName: string }[];
  readonly TRUST_VIEWER_ADDRESS: 'true' | 'false';
  readonly PUBLIC_BASE_URL?: string;
  readonly OCR_TOPIC_ARN?: string;
  readonly OCR_ROLE_ARN?: string;
  readonly PAYMENT_SECRET_ARN?: string;
  readonly CONSOLE_ISSUER_URL?: string;
  readonly CONSOLE_AUTH_BASE_URL?: string;
  readonly CONSOLE_CLIENT_SECRET?: string;
}

/**
 * An http(s) origin, optionally with a path prefix, with no query, fragment, credentials or trailing
 * slash (`https://api.example.com`): the form `PUBLIC_BASE_URL` must have. Undefined when `value` is not one.
 */
export function normalizeBaseUrl(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const u = new URL(value);
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.search || u.hash || value.includes('?') || value.includes('#'))
    return undefined;
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

/** Every variable the schema knows, by its name in the environment. */
export const ENV_NAMES: readonly string[] = Object.values(ENV).filter((n) => !n.startsWith('POWERTOOLS_'));

export type EnvParse = { readonly success: true; readonly data: EnvVars } | { readonly success: false; readonly invalid: readonly string[] };

const KEY_CLASSES: readonly string[] = ['orgKey', 'chatKey', 'acpKey'] satisfies readonly KeyClass[];
const STAGES = /^[a-z0-9]+\/[A-Za-z0-9_-]+(,[a-z0-9]+\/[A-Za-z0-9_-]+)*$/;

/**
 * Checks the environment of a function at cold start; every malformed or missing variable is named.
 * Hand-written rather than a schema library, so a function's bundle does not carry one for a dozen
 * variables (docs/adr/0014).
 */
export function parseEnvVars(source: Readonly<Record<string, string | undefined>>): EnvParse {
  const invalid: string[] = [];
  const text = (name: string, ok: (v: string) => boolean = (v) => v.length > 0): string | undefined => {
    const v = source[name];
    if (v === undefined) return undefined;
    if (!ok(v)) invalid.push(name);
    return v;
  };
  const required = (name: string, ok?: (v: string) => boolean): string => {
    const v = text(name, ok);
    if (v === undefined) invalid.push(name);
    return v ?? '';
  };
  const isUrl = (v: string) => URL.canParse(v);
  const isBaseUrl = (v: string) => normalizeBaseUrl(v) === v;
  const int = (name: string, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const raw = required(name);
    const n = Number(raw);
    if (raw !== '' && !(Number.isInteger(n) && n >= min && n <= max)) invalid.push(name);
    return n;
  };
  const flag = (name: string): 'true' | 'false' => {
    const v = text(name, (x) => x === 'true' || x === 'false');
    return v === 'true' ? 'true' : 'false';
  };
  let plans: Partial<Record<KeyClass, string>> | undefined;
  text(ENV.gatewayUsagePlans, (v) => {
    try {
      const parsed = JSON.parse(v) as unknown;
      const ok =
        typeof parsed === 'object' &&
        parsed !== null &&
        !Array.isArray(parsed) &&
        Object.entries(parsed).every(([k, id]) => KEY_CLASSES.includes(k) && typeof id === 'string' && id.length > 0);
      if (ok) plans = parsed as Partial<Record<KeyClass, string>>;
      return ok;
    } catch {
      return false;
    }
  });
  const stagesRaw = text(ENV.gatewayAuthorizerStages, (v) => STAGES.test(v));
  const optional = <T>(name: string, value: T | undefined) => (value !== undefined ? { [name]: value } : {});
  const data = {
    [ENV.stage]: required(ENV.stage),
    [ENV.tableName]: required(ENV.tableName),
    [ENV.bucketName]: required(ENV.bucketName),
    [ENV.jobsQueueUrl]: required(ENV.jobsQueueUrl, isUrl),
    ...optional(ENV.webhooksQueueUrl, text(ENV.webhooksQueueUrl, isUrl)),
    ...optional(ENV.exportsQueueUrl, text(ENV.exportsQueueUrl, isUrl)),
    ...optional(ENV.responsesQueueUrl, text(ENV.responsesQueueUrl, isUrl)),
    ...optional(ENV.orderEventsQueueUrl, text(ENV.orderEventsQueueUrl, isUrl)),
    ...optional(
      ENV.webhookSecretsKeyArn,
      text(ENV.webhookSecretsKeyArn, (v) => v.startsWith('arn:')),
    ),
    [ENV.visibilityDelayMs]: int(ENV.visibilityDelayMs, 0),
    [ENV.anonRetentionDays]: int(ENV.anonRetentionDays, 1),
    [ENV.emptySessionMaxAgeHours]: int(ENV.emptySessionMaxAgeHours, 1),
    [ENV.appDeletionBatchSize]: int(ENV.appDeletionBatchSize, 1, 100),
    ...optional(ENV.openAiBaseUrl, text(ENV.openAiBaseUrl, isUrl)),
    ...optional(ENV.openAiApiKey, text(ENV.openAiApiKey)),
    [ENV.bedrockEnabled]: flag(ENV.bedrockEnabled),
    ...optional(ENV.gatewayUsagePlans, plans),
    ...optional(
      ENV.gatewayAuthorizerStages,
      stagesRaw === undefined || invalid.includes(ENV.gatewayAuthorizerStages)
        ? undefined
        : stagesRaw.split(',').map((pair) => ({ restApiId: pair.split('/')[0]!, stageName: pair.split('/')[1]! })),
    ),
    [ENV.trustViewerAddress]: flag(ENV.trustViewerAddress),
    ...optional(ENV.publicBaseUrl, text(ENV.publicBaseUrl, isBaseUrl)),
    ...optional(
      ENV.ocrTopicArn,
      text(ENV.ocrTopicArn, (v) => v.startsWith('arn:')),
    ),
    ...optional(
      ENV.ocrRoleArn,
      text(ENV.ocrRoleArn, (v) => v.startsWith('arn:')),
    ),
    ...optional(
      ENV.paymentSecretArn,
      text(ENV.paymentSecretArn, (v) => v.startsWith('arn:')),
    ),
    ...optional(ENV.consoleIssuerUrl, text(ENV.consoleIssuerUrl, isUrl)),
    ...optional(ENV.consoleAuthBaseUrl, text(ENV.consoleAuthBaseUrl, isUrl)),
    ...optional(ENV.consoleClientSecret, text(ENV.consoleClientSecret)),
  } as unknown as EnvVars;
  return invalid.length ? { success: false, invalid } : { success: true, data };
}

/** Variables a grant sets (lib/constructs/app-function.ts), present only on the functions that hold it. */
export const GRANT_SCOPED_ENV: readonly string[] = [
  ENV.webhooksQueueUrl,
  ENV.exportsQueueUrl,
  ENV.responsesQueueUrl,
  ENV.orderEventsQueueUrl,
  ENV.webhookSecretsKeyArn,
  ENV.gatewayUsagePlans,
  ENV.gatewayAuthorizerStages,
  ENV.ocrTopicArn,
  ENV.ocrRoleArn,
  ENV.paymentSecretArn,
  ENV.consoleIssuerUrl,
  ENV.consoleAuthBaseUrl,
  ENV.consoleClientSecret,
];

/** The value the stage's payment secret is created with until the operator stores a real Stripe key (the adapter refuses to charge with it). */
export const PAYMENT_SECRET_PLACEHOLDER = 'not-configured';

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
