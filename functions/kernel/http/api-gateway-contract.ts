/**
 * The contract between the functions and the API gateway in front of them (API Gateway on AWS, the
 * local server on a laptop): the key authorizers, their cache, the usage plans that guard each key class,
 * and the answers the gateway gives on its own, in each area's documented error shape.
 * Synth loads this file: it imports only types and leaf domain modules (test/unit/layers.test.ts).
 */
import { MISSING_KEY_MESSAGE, INVALID_KEY_MESSAGE, type KeyClass } from '../domain/auth-messages';
import { GENERIC_500_MESSAGE, renderErrorBody, shownCode, type ErrorArea } from '../domain/error-bodies';
import type { ErrorCode } from '../domain/errors';
import { RATE_LIMITS } from '../domain/rate-limits';

import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import type { AuthKind } from '../route-vocabulary';

export type { KeyClass };

/** The key class whose authorizer stands in front of a route of each auth kind (none for the others). */
export const KEY_CLASS_OF_AUTH: Readonly<Record<AuthKind, KeyClass | undefined>> = {
  orgKey: 'orgKey',
  chatKey: 'chatKey',
  acpKey: 'acpKey',
  signingSecret: undefined,
  public: undefined,
  iam: undefined,
  consoleSession: undefined,
};

/**
 * How long a gateway keeps an authorizer's answer for one `Authorization` header value. Revoking a key
 * flushes the cache (the admin API calls FlushStageAuthorizersCache; locally the cache is emptied), so
 * the TTL bounds only what nothing flushes: a key whose `expiresAt` passes (the functions re-check the
 * expiry from the authorizer context on every request) and a missed flush (docs/adr/0012).
 */
export const AUTHORIZER_CACHE_TTL_SECONDS = 300;

/**
 * The longest run of leading static segments every path shares (`/api/v1/org` for area A): where an
 * area lives under the one base URL (the CloudFront behaviors, lib/front-door.ts) and which area's
 * shape an unknown path gets locally.
 */
export function staticPrefixOf(paths: readonly string[]): string {
  const prefix = sharedPrefixOf(paths);
  if (prefix === undefined) throw new Error('the routes of an area need a static path prefix they all share');
  return prefix;
}

/** The longest shared run of leading static segments, or undefined when the paths share none. */
function sharedPrefixOf(paths: readonly string[]): string | undefined {
  const split = paths.map((p) => p.split('/').filter(Boolean));
  const prefix: string[] = [];
  for (let i = 0; ; i++) {
    const seg = split[0]?.[i];
    if (seg === undefined || seg.startsWith('{') || !split.every((s) => s[i] === seg && s.length > i + 1)) break;
    prefix.push(seg);
  }
  return prefix.length ? `/${prefix.join('/')}` : undefined;
}

/** An area's paths as groups that each share a static prefix: one group, or one per first segment (area D's API and its `/release-notes` page). */
function initialGroups<K extends string>(area: K, paths: readonly string[]): { area: K; paths: string[] }[] {
  if (sharedPrefixOf(paths) !== undefined || paths.length <= 1) return [{ area, paths: [...paths] }];
  const byFirst = new Map<string, string[]>();
  for (const p of paths) {
    const first = p.split('/').filter(Boolean)[0] ?? '';
    byFirst.set(first, [...(byFirst.get(first) ?? []), p]);
  }
  return [...byFirst.values()].map((group) => ({ area, paths: group }));
}

/** Whether a path (a route's template or a request's) lies under a path pattern: `<prefix>/*`, or one exact path. */
export function underPattern(path: string, pattern: string): boolean {
  return pattern.endsWith('/*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern;
}

/**
 * Where each area lives under the one base URL: its path patterns, `<static prefix>/*` for a group of
 * routes, or the exact path of a lone static route whose prefix another area lives under. An area
 * starts as one group; a group whose pattern
 * would claim another area's route is split by its next path segment (the chat area's `/api/v1/chat/*`,
 * `/api/v1/responses`, `/api/v1/models` and `/api/v1/models/*` beside area A's `/api/v1/org/*`). Areas that cannot be told apart by path throw.
 */
export function areaPathPatterns<K extends string>(byArea: ReadonlyMap<K, readonly string[]>): Map<K, string[]> {
  let groups = [...byArea].flatMap(([area, paths]) => initialGroups(area, [...new Set(paths)]));
  const claims = (area: K, pattern: string) => groups.some((o) => o.area !== area && o.paths.some((p) => underPattern(p, pattern)));
  // A lone static route whose prefix another area lives under, or that has no prefix at all (`/release-notes`), takes its exact path.
  const patternOf = (g: { readonly area: K; readonly paths: readonly string[] }) => {
    const lone = g.paths.length === 1 && !g.paths[0]!.includes('{');
    if (lone && sharedPrefixOf(g.paths) === undefined) return g.paths[0]!;
    const wide = `${staticPrefixOf(g.paths)}/*`;
    return lone && claims(g.area, wide) ? g.paths[0]! : wide;
  };
  const claimsOther = (g: { area: K; paths: string[] }) => claims(g.area, patternOf(g));
  for (let at = groups.findIndex(claimsOther); at >= 0; at = groups.findIndex(claimsOther)) {
    const g = groups[at]!;
    const depth = staticPrefixOf(g.paths).split('/').filter(Boolean).length;
    const byNext = new Map<string, string[]>();
    for (const p of g.paths) {
      const segments = p.split('/').filter(Boolean);
      // A path that ends at the next segment (`/api/v1/models` beside `/api/v1/models/{model}`) is a group of its own: its exact path.
      const next = `${segments[depth] ?? ''}${segments.length === depth + 1 ? '$' : ''}`;
      byNext.set(next, [...(byNext.get(next) ?? []), p]);
    }
    if (byNext.size === 1 || [...byNext.keys()].some((k) => k.startsWith('{'))) {
      const other = groups.find((o) => o.area !== g.area && o.paths.some((p) => underPattern(p, patternOf(g))))!;
      throw new Error(`front door: area ${g.area} (${patternOf(g)}) overlaps area ${other.area} (${patternOf(other)})`);
    }
    groups = [...groups.slice(0, at), ...[...byNext.values()].map((paths) => ({ area: g.area, paths })), ...groups.slice(at + 1)];
  }
  const out = new Map<K, string[]>();
  for (const g of groups) out.set(g.area, [...(out.get(g.area) ?? []), patternOf(g)]);
  return out;
}

/**
 * The viewer's IP address alone, set by the front door's viewer-request function over any value the
 * client sent. The area WAFs count requests per client by it, and the functions behind the front door
 * (`TRUST_VIEWER_ADDRESS`) take the client address from it: behind CloudFront the peer is an edge
 * server, and the first address of `X-Forwarded-For` is whatever the client wrote.
 */
export const VIEWER_IP_HEADER = 'X-Viewer-Ip';

/**
 * The host name the viewer asked for (the `{base_url}` host), set by the same function: API Gateway
 * only sees its own execute-api host, and documents that name absolute URLs (ACP discovery) need the
 * viewer's.
 */
export const VIEWER_HOST_HEADER = 'X-Viewer-Host';

/** The request header the authorizers read and their cache is keyed by. */
export const AUTHORIZER_IDENTITY_HEADER = 'Authorization';

/**
 * The event API Gateway gives a REQUEST authorizer in front of `event`'s method: the request's
 * headers, parameters and context, without an authorizer yet. The local gateway and the tests that
 * play API Gateway in front of the deployment bundles build it the same way.
 */
export function authorizerEventFor(event: APIGatewayProxyEvent, methodArn: string): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn,
    resource: event.resource,
    path: event.path,
    httpMethod: event.httpMethod,
    headers: event.headers,
    multiValueHeaders: event.multiValueHeaders,
    pathParameters: event.pathParameters,
    queryStringParameters: event.queryStringParameters,
    multiValueQueryStringParameters: event.multiValueQueryStringParameters,
    stageVariables: event.stageVariables,
    requestContext: { ...event.requestContext, authorizer: undefined },
  };
}

/** API Gateway lets a request through only when every statement of the authorizer's policy allows it. */
export function policyAllows(result: APIGatewayAuthorizerResult): boolean {
  return result.policyDocument.Statement.every((s) => 'Effect' in s && s.Effect === 'Allow');
}

/** The Lambda module (path under functions/, without `.handler.ts`) that resolves each key class. */
export const AUTHORIZER_HANDLER: Record<KeyClass, string> = {
  orgKey: 'tenancy/authorizers/org-key-authorizer',
  chatKey: 'tenancy/authorizers/chat-key-authorizer',
  acpKey: 'tenancy/authorizers/acp-key-authorizer',
};

export interface UsagePlanThrottle {
  /** Steady requests per second per API key. */
  readonly rateLimit: number;
  /** Token-bucket depth per API key. */
  readonly burstLimit: number;
}

/**
 * The usage plan of each key class: an outer guard that must never refuse what the exact in-function
 * limit allows. A fixed one-minute window admits up to 2 x limit within a second across a window
 * boundary, so the bucket holds 2 x limit; it refills 25 % faster than the limit's average rate.
 */
export function usagePlanThrottle(keyClass: KeyClass): UsagePlanThrottle {
  const { limit, windowMs } = RATE_LIMITS[keyClass];
  return { rateLimit: Math.ceil(((limit * 1000) / windowMs) * 1.25 * 100) / 100, burstLimit: 2 * limit };
}

/** API Gateway response types the platform answers in its own shapes (AWS::ApiGateway::GatewayResponse). */
export type GatewayResponseType =
  | 'UNAUTHORIZED'
  | 'ACCESS_DENIED'
  | 'AUTHORIZER_FAILURE'
  | 'AUTHORIZER_CONFIGURATION_ERROR'
  | 'INVALID_API_KEY'
  | 'THROTTLED'
  | 'QUOTA_EXCEEDED'
  | 'WAF_FILTERED'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'RESOURCE_NOT_FOUND'
  | 'REQUEST_TOO_LARGE'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

export interface GatewayAnswer {
  /** Undefined: keep the status API Gateway chose (the DEFAULT_* families). */
  readonly status?: number;
  readonly code: ErrorCode;
  /** A literal message, or `authorizer` (the denying authorizer's context) or `gateway` (API Gateway's own). */
  readonly message: string | { readonly from: 'authorizer' | 'gateway' };
  readonly retryAfterSeconds?: number;
}

/**
 * What the gateway of `area` answers on its own, before or instead of a function. `keyClass` is the
 * area's bearer-key class, if it has one (its missing-key message).
 */
export function gatewayAnswers(keyClass: KeyClass | undefined): Record<GatewayResponseType, GatewayAnswer> {
  return {
    // No Authorization header at all: API Gateway does not call the authorizer.
    UNAUTHORIZED: { status: 401, code: 'unauthorized', message: keyClass ? MISSING_KEY_MESSAGE[keyClass] : INVALID_KEY_MESSAGE },
    // The authorizer denied the key: unknown, revoked, malformed or expired. Its context says which.
    ACCESS_DENIED: { status: 401, code: 'unauthorized', message: { from: 'authorizer' } },
    AUTHORIZER_FAILURE: { status: 500, code: 'unavailable', message: GENERIC_500_MESSAGE },
    AUTHORIZER_CONFIGURATION_ERROR: { status: 500, code: 'unavailable', message: GENERIC_500_MESSAGE },
    // The authorizer accepted a key whose usage-plan key is missing (admin API failed half-way): the
    // platform's fault, and retryable once the key is re-provisioned.
    INVALID_API_KEY: { status: 503, code: 'unavailable', message: 'This API key is not provisioned at the gateway yet; retry shortly', retryAfterSeconds: 30 },
    THROTTLED: { status: 429, code: 'rate_limited', message: 'Rate limit exceeded', retryAfterSeconds: 1 },
    QUOTA_EXCEEDED: { status: 429, code: 'rate_limited', message: 'Rate limit exceeded', retryAfterSeconds: 60 },
    WAF_FILTERED: { status: 403, code: 'forbidden', message: 'Request blocked' },
    // REST APIs answer an unknown path or method with this (403 "Missing Authentication Token").
    MISSING_AUTHENTICATION_TOKEN: { status: 404, code: 'not_found', message: 'No such route' },
    RESOURCE_NOT_FOUND: { status: 404, code: 'not_found', message: 'No such route' },
    REQUEST_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'Request body too large' },
    DEFAULT_4XX: { code: 'bad_request', message: { from: 'gateway' } },
    DEFAULT_5XX: { code: 'unavailable', message: GENERIC_500_MESSAGE },
  };
}

/**
 * Request headers every gateway answer echoes (response parameter `method.request.header.<name>`). The
 * functions also generate an X-Correlation-ID when none is sent; API Gateway's own answers cannot, and
 * carry its request id (`x-amzn-RequestId`) instead.
 */
export const GATEWAY_ECHOED_HEADERS = ['X-Correlation-ID'] as const;

/** Context keys a denying authorizer sets for the ACCESS_DENIED answer. */
export const DENY_CONTEXT = { code: 'errorCode', message: 'errorMessage' } as const;

const CODE_SLOT = '__GATEWAY_CODE__';
const MESSAGE_SLOT = '__GATEWAY_MESSAGE__';

/**
 * The API Gateway mapping template (VTL) of one answer: the area's error body with the authorizer's or
 * the gateway's message substituted. Literal messages hold no `$` or `#`, so the JSON is literal VTL.
 */
export function gatewayTemplate(area: ErrorArea, answer: GatewayAnswer): string {
  const fromAuthorizer = typeof answer.message !== 'string' && answer.message.from === 'authorizer';
  const code = fromAuthorizer ? CODE_SLOT : shownCode(area, answer.code);
  const message = typeof answer.message === 'string' ? answer.message : MESSAGE_SLOT;
  return JSON.stringify(renderErrorBody(area, code, message))
    .replace(`"${CODE_SLOT}"`, `"$context.authorizer.${DENY_CONTEXT.code}"`)
    .replace(
      `"${MESSAGE_SLOT}"`,
      // Gateway-response templates substitute context variables but run no VTL functions: the
      // authorizer's messages are the platform's own (functions/kernel/domain/auth-messages.ts) and hold no quote.
      fromAuthorizer ? `"$context.authorizer.${DENY_CONTEXT.message}"` : '$context.error.messageString',
    );
}

/**
 * The same answer as the local server gives it (it has no VTL): `context` stands for the denying
 * authorizer's context, `gatewayMessage` for API Gateway's own message.
 */
export function renderGatewayAnswer(
  area: ErrorArea,
  answer: GatewayAnswer,
  context: { readonly authorizer?: Readonly<Record<string, unknown>>; readonly gatewayMessage?: string } = {},
): { status: number; body: unknown; headers: Record<string, string> } {
  const fromAuthorizer = typeof answer.message !== 'string' && answer.message.from === 'authorizer';
  const code = fromAuthorizer ? String(context.authorizer?.[DENY_CONTEXT.code] ?? 'unauthorized') : shownCode(area, answer.code);
  const message =
    typeof answer.message === 'string'
      ? answer.message
      : fromAuthorizer
        ? String(context.authorizer?.[DENY_CONTEXT.message] ?? INVALID_KEY_MESSAGE)
        : (context.gatewayMessage ?? 'Bad request');
  return {
    status: answer.status ?? 400,
    body: renderErrorBody(area, code, message),
    headers: answer.retryAfterSeconds !== undefined ? { 'Retry-After': String(answer.retryAfterSeconds) } : {},
  };
}
