/**
 * The one Middy chain every HTTP function runs: correlation ids, structured logs, metrics, tracing,
 * authentication and rate limits from the route table, and the mapping of domain errors to each area's
 * exact error bodies. Handlers only parse input, call a use case and shape the result.
 */
import { timingSafeEqual, createHash, randomUUID } from 'node:crypto';
import middy from '@middy/core';
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit, type Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { authenticateChatKey, type ChatPrincipal } from '../app/authenticate-chat-key';
import { authenticateOrgKey, requireScope, type OrgPrincipal } from '../app/authenticate-org-key';
import { enforceRateLimit } from '../app/enforce-rate-limit';
import { bearerToken } from '../domain/credentials';
import { DomainError, RateLimitedError, badRequest } from '../domain/errors';
import { RATE_LIMITS } from '../domain/rate-limits';
import type { Deps } from '../ports/deps';
import { ROUTES, type RouteDef } from '../routes';
import { errorBody, GENERIC_500_MESSAGE, STATUS_OF } from '../domain/error-bodies';

export interface HttpDeps extends Deps {
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Locally the admin API checks this token; on AWS it is undefined and API Gateway enforces IAM. */
  readonly adminToken?: string;
}

export interface HttpRequest {
  readonly event: APIGatewayProxyEvent;
  readonly correlationId: string;
  readonly path: Readonly<Record<string, string>>;
  /** Query parameters, last value wins; a present-empty parameter is `''`. */
  readonly query: Readonly<Record<string, string>>;
  readonly principal?: OrgPrincipal;
  /** The chat API key's app and org, on `chatKey` routes. */
  readonly chat?: ChatPrincipal;
  /** The bearer token on `signingSecret` routes (unchecked: matching it is the use case's job). */
  readonly signingSecret?: string;
  header(name: string): string | undefined;
  /** The JSON body; malformed JSON or a non-object is a 400 of the route's area. */
  jsonBody(): Record<string, unknown>;
  textBody(): string;
}

export interface HttpResult {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** A streamed body (Server-Sent Events): written chunk by chunk after the status and headers. */
  readonly stream?: AsyncIterable<string>;
  /** A non-JSON body (the RSS feed), sent as is; `headers` carries its Content-Type. */
  readonly text?: string;
}

/** A proxy result whose body may be streamed; only routes marked `stream` return one with `stream`. */
export interface HttpResponse extends APIGatewayProxyResult {
  readonly stream?: AsyncIterable<string>;
}

export type HttpHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<HttpResponse>;

export function routeById(id: string): RouteDef {
  const route = ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`no route ${id} in functions/routes.ts`);
  return route;
}

export function headerOf(event: Pick<APIGatewayProxyEvent, 'headers'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(event.headers ?? {})) if (k.toLowerCase() === wanted && v !== undefined) return v;
  return undefined;
}

const CORRELATION_HEADER = 'X-Correlation-ID';
const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function correlationIdOf(event: APIGatewayProxyEvent): string {
  const given = headerOf(event, CORRELATION_HEADER);
  return given && CORRELATION_ID.test(given) ? given : randomUUID();
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

function buildRequest(event: APIGatewayProxyEvent, correlationId: string, route: RouteDef): HttpRequest {
  const rawBody = () => (event.body == null ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body);
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(event.multiValueQueryStringParameters ?? {})) if (v && v.length) query[k] = v[v.length - 1] ?? '';
  for (const [k, v] of Object.entries(event.queryStringParameters ?? {})) if (!(k in query)) query[k] = v ?? '';
  return {
    event,
    correlationId,
    path: Object.fromEntries(Object.entries(event.pathParameters ?? {}).map(([k, v]) => [k, v ?? ''])),
    query,
    header: (name) => headerOf(event, name),
    textBody: rawBody,
    jsonBody: () => {
      const text = rawBody();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw badRequest(text.trim() ? 'Invalid JSON body' : 'Missing JSON body');
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest('The JSON body must be an object');
      return parsed as Record<string, unknown>;
    },
  };
}

interface Admission {
  readonly principal?: OrgPrincipal;
  readonly chat?: ChatPrincipal;
  readonly signingSecret?: string;
}

/** The client address API Gateway saw (the local server fills in the socket's peer the same way). */
function clientIp(req: HttpRequest): string {
  return req.event.requestContext?.identity?.sourceIp || 'unknown';
}

/** Authenticates by the route's auth kind and counts the request in its rate-limit window. */
async function admit(deps: HttpDeps, route: RouteDef, req: HttpRequest): Promise<Admission> {
  if (route.auth === 'iam') {
    if (deps.adminToken !== undefined) {
      const token = bearerToken(req.header('authorization'));
      if (!token || !sameSecret(token, deps.adminToken)) throw new DomainError('unauthorized', 'Missing or invalid admin token');
    } else if (!req.event.requestContext?.identity?.userArn) {
      throw new DomainError('unauthorized', 'IAM authentication required');
    }
    return {};
  }
  if (route.auth === 'orgKey') {
    const principal = await authenticateOrgKey(deps, { authorization: req.header('authorization') });
    await enforceRateLimit(deps, { subject: `orgKey:${principal.keyId}`, limit: RATE_LIMITS.orgKey });
    if (route.scope) requireScope(principal, route.scope);
    return { principal };
  }
  if (route.auth === 'chatKey') {
    const chat = await authenticateChatKey(deps, { authorization: req.header('authorization') });
    await enforceRateLimit(deps, { subject: `chatKey:${chat.keyId}`, limit: RATE_LIMITS.chatKey });
    return { chat };
  }
  // Per-IP limits come before anything else a public route does.
  if (route.rateLimit === 'releaseNotesIp') {
    await enforceRateLimit(deps, { subject: `releaseNotesIp:${clientIp(req)}`, limit: RATE_LIMITS.releaseNotesIp });
  }
  if (route.auth === 'signingSecret') {
    const signingSecret = bearerToken(req.header('authorization'));
    return signingSecret !== undefined ? { signingSecret } : {};
  }
  return {};
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Resource ids in the path of the export, release-notes and admin APIs are UUIDs: anything else names no resource
 * (404), and never reaches DynamoDB as an oversized key.
 */
function checkPathIds(route: RouteDef, path: Readonly<Record<string, string>>): void {
  if (route.area !== 'export' && route.area !== 'admin' && route.area !== 'releaseNotes') return;
  for (const [name, value] of Object.entries(path)) {
    if (name.endsWith('Id') && !UUID.test(value)) {
      const resource = name.slice(0, -2);
      throw new DomainError('not_found', `${resource.charAt(0).toUpperCase()}${resource.slice(1)} not found`);
    }
  }
}

function json(status: number, body: unknown, headers: Record<string, string>): APIGatewayProxyResult {
  if (body === undefined) return { statusCode: status, headers, body: '' };
  return { statusCode: status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

/**
 * Wraps a route's logic in the kit. `fn` receives the parsed request (with the authenticated principal)
 * and returns a status and body; domain errors it throws become the area's exact error response.
 */
export function httpRoute(routeId: string, deps: HttpDeps, fn: (req: HttpRequest) => Promise<HttpResult>): HttpHandler {
  const route = routeById(routeId);
  const core = async (event: APIGatewayProxyEvent): Promise<HttpResponse> => {
    const correlationId = correlationIdOf(event);
    deps.logger.appendKeys({ correlationId, route: route.id });
    const base = { [CORRELATION_HEADER]: correlationId };
    const started = Date.now();
    try {
      const req0 = buildRequest(event, correlationId, route);
      const admission = await admit(deps, route, req0);
      checkPathIds(route, req0.path);
      const req: HttpRequest = { ...req0, ...admission };
      const result = await fn(req);
      if (result.stream) return { statusCode: result.status, headers: { ...base, ...(result.headers ?? {}) }, body: '', stream: result.stream };
      if (result.text !== undefined) return { statusCode: result.status, headers: { ...base, ...(result.headers ?? {}) }, body: result.text };
      return json(result.status, result.body, { ...base, ...(result.headers ?? {}) });
    } catch (err) {
      return errorResponse(deps, route, err, base);
    } finally {
      deps.metrics.addMetric('RequestLatency', MetricUnit.Milliseconds, Date.now() - started);
      deps.logger.removeKeys(['correlationId', 'route']);
    }
  };
  return middy(core as HttpHandler)
    .use(injectLambdaContext(deps.logger, { resetKeys: true, logEvent: false }))
    .use(logMetrics(deps.metrics)) as unknown as HttpHandler;
}

function errorResponse(deps: HttpDeps, route: RouteDef, err: unknown, base: Record<string, string>): APIGatewayProxyResult {
  if (err instanceof DomainError) {
    const status = STATUS_OF[err.code];
    const headers = err instanceof RateLimitedError ? { ...base, 'Retry-After': String(err.retryAfterSeconds) } : base;
    if (status >= 500) deps.logger.error('request failed', { code: err.code, message: err.message });
    else deps.logger.info('request rejected', { code: err.code, status });
    deps.metrics.addMetric(`Http${Math.floor(status / 100)}xx`, MetricUnit.Count, 1);
    return json(status, errorBody(route.area, err.code, err.message), headers);
  }
  deps.logger.error('unexpected error', err as Error);
  deps.metrics.addMetric('Http5xx', MetricUnit.Count, 1);
  return json(500, errorBody(route.area, 'unavailable', GENERIC_500_MESSAGE), base);
}
