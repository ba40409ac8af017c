/**
 * The one route table, joined from each area's own table (`functions/<area>/<area>-routes.ts`). The API
 * stack builds an API Gateway method and a function per entry; the local server serves the same entries.
 * A path is written in its area's table and nowhere else.
 * Synth loads this file: the area tables it joins import only types and leaf modules.
 */
import { EXPORT_ROUTES } from './export/export-routes';
import { CHAT_ROUTES } from './chat/chat-routes';
import { ACP_ROUTES } from './acp/acp-routes';
import { RELEASE_NOTES_ROUTES } from './release-notes/release-notes-routes';
import { PLATFORM_ROUTES } from './platform/platform-routes';
import { CONVERSATION_ROUTES } from './conversations/conversation-routes';
import { JOB_ROUTES } from './jobs/job-routes';
import { OPENAPI_ROUTES } from './openapi/openapi-routes';
import type { ErrorArea } from './platform/domain/error-bodies';
import type { RateLimitClass } from './platform/domain/rate-limits';
import type { OrgScope } from './platform/domain/scopes';
import type { PathParam } from './platform/domain/ids';

/** Rate-limit classes: the subject and window a request is counted in (platform/domain/rate-limits.ts). */
export type { RateLimitClass };

/** The API an area's routes belong to; it also fixes their error format (platform/domain/error-bodies.ts). */
export type Area = ErrorArea;

/** How a route authenticates. `iam` routes are the admin API: IAM (SigV4) on AWS, the admin token locally. */
export type AuthKind = 'orgKey' | 'chatKey' | 'acpKey' | 'signingSecret' | 'public' | 'iam';

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
  /** Send to the order-events queue: deliver an order's events to the agent platform (area C). */
  | 'order-events:send'
  | 'model:invoke'
  /** Encrypt webhook signing secrets with the stage's KMS key (purpose-bound encryption context). */
  | 'secrets:seal'
  /** Decrypt them, for signing deliveries. */
  | 'secrets:open'
  /**
   * Create and delete the API Gateway API key (usage-plan key) of a platform key, and flush the key
   * authorizers' caches when a key is revoked (functions/platform/http/api-gateway-contract.ts).
   */
  | 'apiKeys:manage'
  /** Start Textract text detection of an uploaded PDF, with its SNS completion channel (ocr pipeline). */
  | 'ocr:start'
  /** Read Textract text detection results. */
  | 'ocr:read'
  /** Charge through the payment provider: read its API key from Secrets Manager (area C's complete and its recovery). */
  | 'payments:charge';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * What a route reads from the request body (functions/platform/http/kit-request.ts gives the handler only those readers):
 * `none` for GET and DELETE, `json` an object, `text` a text body of any type (NDJSON imports, markdown),
 * `multipart` a `multipart/form-data` body read as raw bytes (uploads).
 */
export type BodyMode = 'none' | 'json' | 'text' | 'multipart';

export interface RouteDef {
  /** Stable id, also the base of the function's construct id. */
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

export const ROUTES: readonly RouteDef[] = [
  ...EXPORT_ROUTES,
  ...CHAT_ROUTES,
  ...ACP_ROUTES,
  ...RELEASE_NOTES_ROUTES,
  ...PLATFORM_ROUTES,
  ...CONVERSATION_ROUTES,
  ...JOB_ROUTES,
  ...OPENAPI_ROUTES,
];
