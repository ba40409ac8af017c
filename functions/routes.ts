/**
 * The one route table. The API stack builds an API Gateway method and a function per entry; the local
 * server serves the same entries. A path is written here and nowhere else.
 * Synth loads this file: no runtime imports but leaf domain constants.
 */
import { MAX_CHAT_REQUEST_BYTES } from './domain/body-limits';
import type { ErrorArea } from './domain/error-bodies';
import type { RateLimitClass } from './domain/rate-limits';
import type { OrgScope } from './domain/scopes';

/** Rate-limit classes: the subject and window a request is counted in (domain/rate-limits.ts). */
export type { RateLimitClass };

/** The API an area's routes belong to; it also fixes their error format (domain/error-bodies.ts). */
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
  | 'model:invoke'
  /** Encrypt webhook signing secrets with the stage's KMS key (purpose-bound encryption context). */
  | 'secrets:seal'
  /** Decrypt them, for signing deliveries. */
  | 'secrets:open'
  /**
   * Create and delete the API Gateway API key (usage-plan key) of a platform key, and flush the key
   * authorizers' caches when a key is revoked (functions/gateway.ts).
   */
  | 'gatewayKeys:manage'
  /** Start Textract text detection of an uploaded PDF, with its SNS completion channel (ocr pipeline). */
  | 'ocr:start'
  /** Read Textract text detection results. */
  | 'ocr:read'
  /** Charge through the payment provider: read its API key from Secrets Manager (area C's complete and its recovery). */
  | 'payments:charge';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * What a route reads from the request body (functions/http/kit-request.ts gives the handler only those readers):
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
  /** Module under functions/http, without `.handler.ts`. */
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

const ACP = '/acp/{appId}';
const ADMIN = '/admin/v1';
const CHAT = '/api/v1/chat';
const ORG = '/api/v1/org';
const RELEASE_NOTES = '/api/v1/release-notes';

export const ROUTES: readonly RouteDef[] = [
  // Area A: Org Export API
  {
    id: 'orgAppsList',
    method: 'GET',
    path: `${ORG}/apps`,
    handler: 'org-apps-list',
    area: 'export',
    auth: 'orgKey',
    scope: 'apps:read',
    rateLimit: 'orgKey',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'orgSessionsList',
    method: 'GET',
    path: `${ORG}/sessions`,
    handler: 'org-sessions-list',
    area: 'export',
    auth: 'orgKey',
    scope: 'transcripts:read',
    rateLimit: 'orgKey',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'orgSessionMessages',
    method: 'GET',
    path: `${ORG}/sessions/{sessionId}/messages`,
    handler: 'org-session-messages',
    area: 'export',
    auth: 'orgKey',
    scope: 'transcripts:read',
    rateLimit: 'orgKey',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'orgUsageList',
    method: 'GET',
    path: `${ORG}/usage`,
    handler: 'org-usage-list',
    area: 'export',
    auth: 'orgKey',
    scope: 'usage:read',
    rateLimit: 'orgKey',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'orgTombstonesList',
    method: 'GET',
    path: `${ORG}/tombstones`,
    handler: 'org-tombstones-list',
    area: 'export',
    auth: 'orgKey',
    scope: 'tombstones:read',
    rateLimit: 'orgKey',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },

  // Area B: Chat Completions API
  {
    id: 'chatCompletionsCreate',
    method: 'POST',
    path: `${CHAT}/completions`,
    handler: 'chat-completions-create',
    area: 'chat',
    auth: 'chatKey',
    rateLimit: 'chatKey',
    body: 'json',
    grants: ['table:read', 'table:write', 'model:invoke', 'bucket:read'],
    timeoutSeconds: 300,
    memoryMb: 1024,
    stream: true,
    maxBodyBytes: MAX_CHAT_REQUEST_BYTES,
  },
  {
    id: 'chatFilesCreate',
    method: 'POST',
    path: `${CHAT}/files`,
    handler: 'chat-files-create',
    area: 'chat',
    auth: 'chatKey',
    rateLimit: 'chatKey',
    body: 'multipart',
    grants: ['table:read', 'table:write', 'bucket:read', 'bucket:write', 'ocr:start'],
    timeoutSeconds: 120,
    memoryMb: 1024,
    origin: 'uploadService',
  },

  // Area C: ACP checkout API: public discovery (200 a minute per client IP)
  {
    id: 'acpProductsList',
    method: 'GET',
    path: `${ACP}/products`,
    handler: 'acp-products-list',
    area: 'acp',
    auth: 'public',
    rateLimit: 'acpPublicIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'acpAgentCard',
    method: 'GET',
    path: `${ACP}/.well-known/agent.json`,
    handler: 'acp-agent-card',
    area: 'acp',
    auth: 'public',
    rateLimit: 'acpPublicIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'acpAgentCardV3',
    method: 'GET',
    path: `${ACP}/.well-known/agent-card.json`,
    handler: 'acp-agent-card-v3',
    area: 'acp',
    auth: 'public',
    rateLimit: 'acpPublicIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'acpDiscovery',
    method: 'GET',
    path: `${ACP}/.well-known/acp.json`,
    handler: 'acp-discovery',
    area: 'acp',
    auth: 'public',
    rateLimit: 'acpPublicIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },

  // Area C: checkout sessions (an ACP key of the app in the path, 60 a minute per key)
  {
    id: 'acpCheckoutCreate',
    method: 'POST',
    path: `${ACP}/checkout_sessions`,
    handler: 'acp-checkout-create',
    area: 'acp',
    auth: 'acpKey',
    rateLimit: 'acpKey',
    body: 'json',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'acpCheckoutGet',
    method: 'GET',
    path: `${ACP}/checkout_sessions/{checkoutSessionId}`,
    handler: 'acp-checkout-get',
    area: 'acp',
    auth: 'acpKey',
    rateLimit: 'acpKey',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'acpCheckoutUpdate',
    method: 'POST',
    path: `${ACP}/checkout_sessions/{checkoutSessionId}`,
    handler: 'acp-checkout-update',
    area: 'acp',
    auth: 'acpKey',
    rateLimit: 'acpKey',
    body: 'json',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'acpCheckoutComplete',
    method: 'POST',
    path: `${ACP}/checkout_sessions/{checkoutSessionId}/complete`,
    handler: 'acp-checkout-complete',
    area: 'acp',
    auth: 'acpKey',
    rateLimit: 'acpKey',
    body: 'json',
    grants: ['table:read', 'table:write', 'payments:charge'],
  },
  {
    id: 'acpCheckoutCancel',
    method: 'POST',
    path: `${ACP}/checkout_sessions/{checkoutSessionId}/cancel`,
    handler: 'acp-checkout-cancel',
    area: 'acp',
    auth: 'acpKey',
    rateLimit: 'acpKey',
    body: 'json',
    grants: ['table:read', 'table:write'],
  },

  // Area D: release-notes feed and webhook subscriptions (public; list, delete and the delivery log take the subscription's secret)
  {
    id: 'releaseNotesFeed',
    method: 'GET',
    path: `${RELEASE_NOTES}/feed`,
    handler: 'release-notes-feed',
    area: 'releaseNotes',
    auth: 'public',
    rateLimit: 'releaseNotesIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'releaseNotesSubscriptionCreate',
    method: 'POST',
    path: `${RELEASE_NOTES}/subscriptions`,
    handler: 'release-notes-subscription-create',
    area: 'releaseNotes',
    auth: 'public',
    rateLimit: 'releaseNotesIp',
    body: 'json',
    grants: ['table:read', 'table:write', 'webhooks:send', 'secrets:seal'],
  },
  {
    id: 'releaseNotesSubscriptionsList',
    method: 'GET',
    path: `${RELEASE_NOTES}/subscriptions`,
    handler: 'release-notes-subscriptions-list',
    area: 'releaseNotes',
    auth: 'signingSecret',
    rateLimit: 'releaseNotesIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'releaseNotesSubscriptionDelete',
    method: 'DELETE',
    path: `${RELEASE_NOTES}/subscriptions/{subscriptionId}`,
    handler: 'release-notes-subscription-delete',
    area: 'releaseNotes',
    auth: 'signingSecret',
    rateLimit: 'releaseNotesIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'releaseNotesDeliveriesList',
    method: 'GET',
    path: `${RELEASE_NOTES}/subscriptions/{subscriptionId}/deliveries`,
    handler: 'release-notes-deliveries-list',
    area: 'releaseNotes',
    auth: 'signingSecret',
    rateLimit: 'releaseNotesIp',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },

  // Admin API (docs/design.md §6)
  {
    id: 'adminOrgCreate',
    method: 'POST',
    path: `${ADMIN}/orgs`,
    handler: 'admin-org-create',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:write'],
  },
  {
    id: 'adminOrgGet',
    method: 'GET',
    path: `${ADMIN}/orgs/{orgId}`,
    handler: 'admin-org-get',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read'],
  },
  {
    id: 'adminOrgKeyCreate',
    method: 'POST',
    path: `${ADMIN}/orgs/{orgId}/keys`,
    handler: 'admin-org-key-create',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write', 'gatewayKeys:manage'],
  },
  {
    id: 'adminOrgCreditsAdd',
    method: 'POST',
    path: `${ADMIN}/orgs/{orgId}/credits`,
    handler: 'admin-org-credits-add',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'adminKeyRevoke',
    method: 'DELETE',
    path: `${ADMIN}/keys/{keyId}`,
    handler: 'admin-key-revoke',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read', 'table:write', 'gatewayKeys:manage'],
  },
  {
    id: 'adminAppCreate',
    method: 'POST',
    path: `${ADMIN}/orgs/{orgId}/apps`,
    handler: 'admin-app-create',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'adminAppGet',
    method: 'GET',
    path: `${ADMIN}/apps/{appId}`,
    handler: 'admin-app-get',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read'],
  },
  {
    id: 'adminAppUpdate',
    method: 'PATCH',
    path: `${ADMIN}/apps/{appId}`,
    handler: 'admin-app-update',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'adminAppDelete',
    method: 'DELETE',
    path: `${ADMIN}/apps/{appId}`,
    handler: 'admin-app-delete',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read', 'table:write', 'jobs:send'],
  },
  {
    id: 'adminChatKeyCreate',
    method: 'POST',
    path: `${ADMIN}/apps/{appId}/chat-keys`,
    handler: 'admin-chat-key-create',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write', 'gatewayKeys:manage'],
  },
  {
    id: 'adminProductCreate',
    method: 'POST',
    path: `${ADMIN}/apps/{appId}/products`,
    handler: 'admin-product-create',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'adminProductsList',
    method: 'GET',
    path: `${ADMIN}/apps/{appId}/products`,
    handler: 'admin-products-list',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read'],
  },
  {
    id: 'adminProductUpdate',
    method: 'PATCH',
    path: `${ADMIN}/products/{productId}`,
    handler: 'admin-product-update',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'adminAcpKeyCreate',
    method: 'POST',
    path: `${ADMIN}/apps/{appId}/acp-keys`,
    handler: 'admin-acp-key-create',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write', 'gatewayKeys:manage'],
  },
  {
    id: 'adminOrdersList',
    method: 'GET',
    path: `${ADMIN}/apps/{appId}/orders`,
    handler: 'admin-orders-list',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read'],
  },
  {
    id: 'adminImportCreate',
    method: 'POST',
    path: `${ADMIN}/apps/{appId}/imports`,
    handler: 'admin-import-create',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'text',
    grants: ['table:read', 'table:write'],
    timeoutSeconds: 29,
  },
  {
    id: 'adminSessionDelete',
    method: 'DELETE',
    path: `${ADMIN}/sessions/{sessionId}`,
    handler: 'admin-session-delete',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'adminConsumerDelete',
    method: 'DELETE',
    path: `${ADMIN}/consumers/{consumerId}`,
    handler: 'admin-consumer-delete',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'none',
    grants: ['table:read', 'table:write'],
    timeoutSeconds: 29,
  },
  {
    id: 'adminReleasePeriodPublish',
    method: 'POST',
    path: `${ADMIN}/release-notes/periods`,
    handler: 'admin-release-period-publish',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'text',
    grants: ['table:read', 'table:write', 'webhooks:send'],
  },
  {
    id: 'adminJobRun',
    method: 'POST',
    path: `${ADMIN}/jobs/{jobName}/runs`,
    handler: 'admin-job-run',
    area: 'admin',
    auth: 'iam',
    rateLimit: 'none',
    body: 'json',
    grants: ['table:read', 'table:write', 'jobs:send', 'bucket:read', 'bucket:write', 'payments:charge'],
    timeoutSeconds: 29,
  },
];
