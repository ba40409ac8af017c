/**
 * The words every route and worker table is written in: what a route, a queue consumer and a scheduled
 * job declare. Each area keeps its own tables, keyed by id (`<area>-routes.ts`, `<area>-workers.ts`);
 * its handlers hand their own entry to the kit. The composition on top joins the tables
 * (functions/routes.ts, functions/workers.ts) for the CDK stacks, the local server and the API reference.
 * Synth loads this file: it imports only types.
 */
import type { ErrorArea } from './domain/error-bodies';
import type { RateLimitClass } from './domain/rate-limits';
import type { OrgScope } from './domain/scopes';
import type { PathParam } from './domain/ids';

/** Rate-limit classes: the subject and window a request is counted in (kernel/domain/rate-limits.ts). */
export type { RateLimitClass };

/** The API an area's routes belong to; it also fixes their error format (kernel/domain/error-bodies.ts). */
export type Area = ErrorArea;

/**
 * How a route authenticates. `iam` routes are the admin API: IAM (SigV4) on AWS, the admin token locally.
 * `consoleSession` routes are the console API: the console's session cookie, the custom header on every
 * state-changing call, and the member's role in the org of the path checked against the route's permission.
 */
export type AuthKind = 'orgKey' | 'chatKey' | 'acpKey' | 'signingSecret' | 'public' | 'iam' | 'consoleSession';

/** What a route's function may touch. The API stack turns each grant into IAM permissions plus env. */
export type Grant =
  | 'table:read'
  | 'table:write'
  | 'bucket:read'
  | 'bucket:write'
  | 'jobs:send'
  | 'webhooks:send'
  /** Send to the exports queue: the chunks of a bulk snapshot export (docs/adr/0031). */
  | 'exports:send'
  | 'responses:send'
  /** Send to the order-events queue: deliver an order's events to the agent platform (area C). */
  | 'order-events:send'
  | 'model:invoke'
  /** Encrypt webhook signing secrets with the stage's KMS key (purpose-bound encryption context). */
  | 'secrets:seal'
  /** Decrypt them, for signing deliveries. */
  | 'secrets:open'
  /** Encrypt a console session's tokens with the same key, under a purpose of their own (docs/adr/0041). */
  | 'sessions:seal'
  /** Decrypt them, to admit a console caller or refresh the session. */
  | 'sessions:open'
  /**
   * Create and delete the API Gateway API key (usage-plan key) of a platform key, and flush the key
   * authorizers' caches when a key is revoked (functions/kernel/http/api-gateway-contract.ts).
   */
  | 'apiKeys:manage'
  /** Start Textract text detection of an uploaded PDF, with its SNS completion channel (ocr pipeline). */
  | 'ocr:start'
  /** Read Textract text detection results. */
  | 'ocr:read'
  /** Charge through the payment provider: read its API key from Secrets Manager (area C's complete and its recovery). */
  | 'payments:charge'
  /**
   * Sign builders in to the console: the user pool's issuer and managed-login domain, and read the
   * console client's id and secret from Secrets Manager (docs/adr/0042).
   */
  | 'identity:read';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * What a route reads from the request body (functions/kernel/http/kit-request.ts gives the handler only those readers):
 * `none` for GET and DELETE, `json` an object, `text` a text body of any type (NDJSON imports, markdown),
 * `multipart` a `multipart/form-data` body read as raw bytes (uploads).
 */
export type BodyMode = 'none' | 'json' | 'text' | 'multipart';

export interface RouteDef {
  /** Stable id, also the base of the function's construct id: the route's key in its area's table. */
  readonly id: string;
  readonly method: HttpMethod;
  /** API Gateway path syntax: `{name}` for a path parameter. */
  readonly path: string;
  /**
   * The shape of each path parameter, by name: a value it does not read names no resource, and the
   * kit answers 404 `<Name> not found` before the handler runs. Every parameter of an export,
   * release-notes or admin path is declared (test/unit/path-params.test.ts); area C's and B's handlers
   * judge their own, with their protocol's error bodies.
   */
  readonly pathParams?: Readonly<Record<string, PathParam>>;
  /** The handler module's path under functions/, without `.handler.ts` (`<area>/http/<name>`). */
  readonly handler: string;
  readonly area: Area;
  readonly auth: AuthKind;
  /** Required org-key scope, for `orgKey` routes. */
  readonly scope?: OrgScope;
  /**
   * What a `consoleSession` route needs: a permission of the one permission table
   * (functions/tenancy/domain/roles.ts), checked against the caller's role in the path's `{orgId}`;
   * or `signedIn` for a route of the person rather than of an org (accepting an invitation).
   */
  readonly permission?: string;
  readonly rateLimit: RateLimitClass;
  readonly body: BodyMode;
  readonly grants: readonly Grant[];
  /**
   * At most 29 for buffered routes (API Gateway's default integration timeout; longer work goes through
   * the jobs queue). Streaming routes may run up to API Gateway's streaming limit.
   */
  readonly timeoutSeconds?: number;
  readonly memoryMb?: number;
  /**
   * The function may stream its response (API Gateway REST response streaming + Lambda response
   * streaming): its Lambda entry is streamified and the integration uses STREAM transfer mode.
   */
  readonly stream?: boolean;
  /**
   * The largest request body the route's handler accepts (it answers 413 above it). On AWS the area's
   * WAF answers a larger declared Content-Length with the same 413 before the function is invoked: a
   * Lambda takes at most 6 MB of request, so a 6 to 10 MB body would otherwise fail as a 502.
   */
  readonly maxBodyBytes?: number;
  /**
   * Where the front door sends the route. `api` (default): the area's REST API (API Gateway + Lambda).
   * `uploadService`: the upload service (ALB + Fargate running the same handler), because the route's
   * body (20 MB) is beyond API Gateway's 10 MB and Lambda's 6 MB (docs/adr/0015-chat-file-uploads.md).
   */
  readonly origin?: 'api' | 'uploadService';
}

/** A queue consumer: a non-HTTP entry point the CDK stacks and the local process both loop over. */
export interface QueueDef<Id extends string = string> {
  /** The queue's key in its area's table. */
  readonly id: Id;
  /**
   * Who sends to the queue: `functions` (a function with the matching grant) or `textract` (Textract's
   * completion notices through the OCR SNS topic, raw delivery; locally the tesseract engine).
   * @default 'functions'
   */
  readonly source?: 'functions' | 'textract';
  /** The consumer module's path under functions/, without `.handler.ts` (`<area>/queue/<name>`). */
  readonly handler: string;
  readonly batchSize: number;
  readonly timeoutSeconds: number;
  readonly maxReceiveCount: number;
  /** Concurrent invocations of the consumer (SQS event source maximum concurrency, at least 2). @default unbounded */
  readonly maxConcurrency?: number;
  readonly grants: readonly Grant[];
}

/** A scheduled job: EventBridge Scheduler on AWS, a timer in the local process. */
export interface ScheduleDef<Id extends string = string> {
  /** The job's name: its key in its area's table. */
  readonly id: Id;
  /** The job module's path under functions/, without `.handler.ts` (`<area>/jobs/<name>`). */
  readonly handler: string;
  /** EventBridge Scheduler `rate(...)` expression on AWS; the local timer runs at the same interval. */
  readonly expression: `rate(${number} ${'minute' | 'minutes' | 'hour' | 'hours' | 'day' | 'days'})`;
  readonly timeoutSeconds: number;
  readonly grants: readonly Grant[];
}

/** A table's entries as written: the id is the key. */
type Unkeyed<D> = Omit<D, 'id'>;
/** A table keyed by id, each entry carrying its own key as `id`. */
export type Keyed<D, K extends string> = { readonly [I in K]: D & { readonly id: I } };

function keyed<D, K extends string>(entries: Record<K, Unkeyed<D>>): Keyed<D, K> {
  return Object.fromEntries(Object.entries<Unkeyed<D>>(entries).map(([id, entry]) => [id, { id, ...entry }])) as Keyed<D, K>;
}

/** An area's routes by id: `routeTable({ chatCompletionsCreate: { method: 'POST', … } })`. */
export const routeTable = <K extends string>(routes: Record<K, Unkeyed<RouteDef>>): Keyed<RouteDef, K> => keyed(routes);
/** An area's queue consumers by queue id. */
export const queueTable = <K extends string>(queues: Record<K, Unkeyed<QueueDef>>): Keyed<QueueDef<K>, K> => keyed(queues);
/** An area's scheduled jobs by job name. */
export const scheduleTable = <K extends string>(schedules: Record<K, Unkeyed<ScheduleDef>>): Keyed<ScheduleDef<K>, K> => keyed(schedules);

/**
 * A route of the console API: the session cookie, errors in the `{ error: { code, message } }` shape,
 * counted per client address, and the permission its caller's role needs.
 */
export const consoleApiRoute = (
  route: Omit<Unkeyed<RouteDef>, 'area' | 'auth' | 'rateLimit' | 'permission'> & { readonly permission: string },
): Unkeyed<RouteDef> => ({
  ...route,
  area: 'console',
  auth: 'consoleSession',
  rateLimit: 'consoleIp',
  // Admitting a caller reads its session: its tokens are sealed, and an expired access token is refreshed at the issuer and sealed again.
  grants: [...new Set<Grant>([...route.grants, 'table:read', 'table:write', 'sessions:seal', 'sessions:open', 'identity:read'])],
});

/** A route of the admin API: IAM on AWS (the admin token locally), errors in the admin shape, no rate limit. */
export const adminRoute = (route: Omit<Unkeyed<RouteDef>, 'area' | 'auth' | 'rateLimit'>): Unkeyed<RouteDef> => ({
  ...route,
  area: 'admin',
  auth: 'iam',
  rateLimit: 'none',
});
