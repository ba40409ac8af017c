/**
 * The one Middy chain every HTTP function runs: correlation ids, structured logs, metrics, tracing,
 * authentication and rate limits from the route table, and the mapping of domain errors to each area's
 * exact error bodies. Handlers only parse input, call a use case and shape the result.
 */
import { timingSafeEqual, createHash, randomUUID } from 'node:crypto';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { Readable } from 'node:stream';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { admitChatGrant, type ChatPrincipal } from '../app/authenticate-chat-key';
import { orgPrincipal, requireScope, type OrgPrincipal } from '../app/authenticate-org-key';
import { enforceRateLimit } from '../app/enforce-rate-limit';
import { requireUnexpired, resolveApiKey } from '../app/resolve-api-key';
import type { KeyClass } from '../domain/auth-messages';
import { bearerToken } from '../domain/credentials';
import { CORRELATION_HEADER, correlationIdOf, headerOf } from '../domain/http-headers';
import { errorBody, GENERIC_500_MESSAGE, STATUS_OF } from '../domain/error-bodies';
import { badRequest, BusyError, DomainError, RateLimitedError, TemporarilyUnavailableError } from '../domain/errors';
import { grantFromContext, type KeyGrant } from '../domain/key-grant';
import { RATE_LIMITS, type RateLimitClass } from '../domain/rate-limits';
import { VIEWER_IP_HEADER } from '../gateway';
import { ROUTES, type AuthKind, type BodyMode, type RouteDef } from '../routes';
import type { CoreDeps } from '../wiring/core-wiring';
import { isUuid } from '../domain/ids';

/** What the kit needs of a function's deps; each area's wiring builds a superset. */
export type KitDeps = CoreDeps;

export interface HttpRequest {
  readonly event: APIGatewayProxyEvent;
  readonly correlationId: string;
  readonly path: Readonly<Record<string, string>>;
  /** Query parameters, last value wins; a present-empty parameter is `''`. */
  readonly query: Readonly<Record<string, string>>;
  /** The client's address: the connection's peer, or CloudFront's viewer address behind the front door. */
  readonly clientIp: string;
  /** The resolved key, on `orgKey`, `chatKey` and `acpKey` routes. */
  readonly grant?: KeyGrant;
  /** The org key's org and scopes, on `orgKey` routes. */
  readonly principal?: OrgPrincipal;
  /** The chat API key's app and org, on `chatKey` routes. */
  readonly chat?: ChatPrincipal;
  /** The bearer token on `signingSecret` routes (unchecked: matching it is the use case's job). */
  readonly signingSecret?: string;
  header(name: string): string | undefined;
  /** The JSON body (`json` and `text` routes); malformed JSON or a non-object is a 400 of the route's area. */
  jsonBody(): Record<string, unknown>;
  /** The body as text (`json` and `text` routes). */
  textBody(): string;
  /**
   * The body as a stream (`multipart` routes), read as it arrives: the local server and the upload
   * service hand over the connection itself (see `StreamedBodyEvent`); a Lambda event's buffered body
   * otherwise.
   */
  bodyStream(): Readable;
}

/**
 * An event whose body was not read before the handler ran: the HTTP servers that run the kit outside
 * Lambda (functions/local/http-server.ts, the upload service) pass the request stream of `multipart`
 * routes here, so an upload is checked while it arrives and cut off at its limit.
 */
export interface StreamedBodyEvent extends APIGatewayProxyEvent {
  readonly bodyStream?: Readable;
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


function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * The client address. Behind the CloudFront front door (and only there: its origins refuse requests
 * that did not come through it) the front door's `X-Viewer-Ip` names the viewer, the same header the
 * area WAFs count by; anywhere else that header is the client's own word and is ignored.
 */
function clientIpOf(deps: KitDeps, event: APIGatewayProxyEvent): string {
  const viewer = deps.settings.trustViewerAddress ? headerOf(event.headers, VIEWER_IP_HEADER) : undefined;
  return viewer || event.requestContext?.identity?.sourceIp || 'unknown';
}

const wrongMode = (route: RouteDef, reader: string) => () => {
  throw new Error(`route ${route.id} reads its body as ${route.body}, not with ${reader}()`);
};

type BodyReaders = Pick<HttpRequest, 'jsonBody' | 'textBody' | 'bodyStream'>;

/** Which body readers each mode gives a handler; a new mode does not compile until it is listed here. */
const BODY_READERS = {
  none: (route) => ({ jsonBody: wrongMode(route, 'jsonBody'), textBody: wrongMode(route, 'textBody'), bodyStream: wrongMode(route, 'bodyStream') }),
  json: (route, bytes) => ({ jsonBody: () => parseJsonObject(bytes().toString('utf8')), textBody: () => bytes().toString('utf8'), bodyStream: wrongMode(route, 'bodyStream') }),
  text: (route, bytes) => ({ jsonBody: () => parseJsonObject(bytes().toString('utf8')), textBody: () => bytes().toString('utf8'), bodyStream: wrongMode(route, 'bodyStream') }),
  multipart: (route, bytes, event) => ({
    jsonBody: wrongMode(route, 'jsonBody'),
    textBody: wrongMode(route, 'textBody'),
    bodyStream: () => event.bodyStream ?? Readable.from([bytes()]),
  }),
} satisfies Record<BodyMode, (route: RouteDef, bytes: () => Buffer, event: StreamedBodyEvent) => BodyReaders>;

function parseJsonObject(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest(text.trim() ? 'Invalid JSON body' : 'Missing JSON body');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest('The JSON body must be an object');
  return parsed as Record<string, unknown>;
}

function buildRequest(deps: KitDeps, event: APIGatewayProxyEvent, correlationId: string, route: RouteDef): HttpRequest {
  const bytes = () => (event.body == null ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8'));
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(event.multiValueQueryStringParameters ?? {})) if (v && v.length) query[k] = v[v.length - 1] ?? '';
  for (const [k, v] of Object.entries(event.queryStringParameters ?? {})) if (!(k in query)) query[k] = v ?? '';
  return {
    event,
    correlationId,
    path: Object.fromEntries(Object.entries(event.pathParameters ?? {}).map(([k, v]) => [k, v ?? ''])),
    query,
    clientIp: clientIpOf(deps, event),
    header: (name) => headerOf(event.headers, name),
    ...BODY_READERS[route.body](route, bytes, event),
  };
}

/** Who is calling, before the request is counted. */
interface Identity {
  readonly grant?: KeyGrant;
  readonly signingSecret?: string;
}

/**
 * The key a gateway authorizer resolved (its context), or, with no authorizer in front (a direct
 * invocation), the same resolution here. Either way a cached grant's expiry is checked again.
 */
async function keyGrant(deps: KitDeps, keyClass: KeyClass, req: HttpRequest): Promise<Identity> {
  const fromGateway = grantFromContext(req.event.requestContext?.authorizer);
  const grant = fromGateway?.keyClass === keyClass ? fromGateway : await resolveApiKey(deps, { keyClass, authorization: req.header('authorization') });
  return { grant: requireUnexpired(deps, grant) };
}

/** How each auth kind identifies the caller; a new kind does not compile until it is listed here. */
const IDENTIFY = {
  orgKey: (deps, req) => keyGrant(deps, 'orgKey', req),
  chatKey: (deps, req) => keyGrant(deps, 'chatKey', req),
  acpKey: (deps, req) => keyGrant(deps, 'acpKey', req),
  signingSecret: async (_deps, req) => {
    const signingSecret = bearerToken(req.header('authorization'));
    return signingSecret !== undefined ? { signingSecret } : {};
  },
  public: async () => ({}),
  iam: async (deps, req) => {
    if (deps.adminToken !== undefined) {
      const token = bearerToken(req.header('authorization'));
      if (!token || !sameSecret(token, deps.adminToken)) throw new DomainError('unauthorized', 'Missing or invalid admin token');
    } else if (!req.event.requestContext?.identity?.userArn) {
      throw new DomainError('unauthorized', 'IAM authentication required');
    }
    return {};
  },
} satisfies Record<AuthKind, (deps: KitDeps, req: HttpRequest) => Promise<Identity>>;

/** The window each rate-limit class counts a request in; a new class does not compile until it is listed here. */
const RATE_SUBJECT = {
  orgKey: (identity) => `orgKey:${identity.grant!.keyId}`,
  chatKey: (identity) => `chatKey:${identity.grant!.keyId}`,
  acpKey: (identity) => `acpKey:${identity.grant!.keyId}`,
  acpPublicIp: (_identity, req) => `acpPublicIp:${req.clientIp}`,
  releaseNotesIp: (_identity, req) => `releaseNotesIp:${req.clientIp}`,
  none: () => undefined,
} satisfies Record<RateLimitClass, (identity: Identity, req: HttpRequest) => string | undefined>;

type Admission = Pick<HttpRequest, 'grant' | 'principal' | 'chat' | 'signingSecret'>;

/**
 * What each auth kind checks once the request is being counted: scopes, the key's app and org, the
 * app in the path. `counted` settles with the rate-limit verdict; a check that fails waits for it, so a
 * request over its limit is a 429 whatever else is wrong with it (as when the checks ran after it).
 */
const ADMIT = {
  orgKey: async (_deps, route, _req, identity, counted) => {
    const principal = orgPrincipal(identity.grant!);
    if (route.scope && !principal.scopes.includes(route.scope)) {
      await counted;
      requireScope(principal, route.scope);
    }
    return { grant: identity.grant!, principal };
  },
  chatKey: async (deps, _route, _req, identity) => ({ grant: identity.grant!, chat: await admitChatGrant(deps, identity.grant!) }),
  acpKey: async (_deps, _route, req, identity, counted) => {
    if (req.path.appId !== undefined && req.path.appId !== identity.grant!.appId) {
      await counted;
      throw new DomainError('forbidden', 'This API key belongs to another app');
    }
    return { grant: identity.grant! };
  },
  signingSecret: async (_deps, _route, _req, identity) => (identity.signingSecret !== undefined ? { signingSecret: identity.signingSecret } : {}),
  public: async () => ({}),
  iam: async () => ({}),
} satisfies Record<AuthKind, (deps: KitDeps, route: RouteDef, req: HttpRequest, identity: Identity, counted: Promise<void>) => Promise<Admission>>;

const KEY_LIMITS: readonly RateLimitClass[] = ['orgKey', 'chatKey', 'acpKey'];

/** A key-class limit counts per key, so only a route authenticated by that key class can have it. */
function checkRouteShape(route: RouteDef): void {
  if (KEY_LIMITS.includes(route.rateLimit) && route.rateLimit !== route.auth) {
    throw new Error(`route ${route.id}: rate limit ${route.rateLimit} needs auth ${route.rateLimit}, not ${route.auth}`);
  }
}

/**
 * Authenticates, counts and admits a request, then runs the route. A GET only reads, so it runs
 * concurrently with its rate-limit write (and its result is dropped when the counter says 429); any
 * other method waits for the verdict before it writes anything.
 */
async function handle(deps: KitDeps, route: RouteDef, req0: HttpRequest, fn: (req: HttpRequest) => Promise<HttpResult>): Promise<HttpResult> {
  const identity = await IDENTIFY[route.auth](deps, req0);
  const subject = RATE_SUBJECT[route.rateLimit](identity, req0);
  const limit = route.rateLimit === 'none' ? undefined : RATE_LIMITS[route.rateLimit];
  const counted = subject && limit ? enforceRateLimit(deps, { subject, limit }) : Promise.resolve();
  counted.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
  const admission = await ADMIT[route.auth](deps, route, req0, identity, counted);
  checkPathIds(route, req0.path);
  const req: HttpRequest = { ...req0, ...admission };
  if (route.method !== 'GET') {
    await counted;
    return fn(req);
  }
  const running = fn(req);
  running.catch(() => undefined);
  await counted;
  return running;
}


/**
 * Resource ids in the path of the export, release-notes and admin APIs are UUIDs: anything else names no resource
 * (404), and never reaches DynamoDB as an oversized key.
 */
function checkPathIds(route: RouteDef, path: Readonly<Record<string, string>>): void {
  if (route.area !== 'export' && route.area !== 'admin' && route.area !== 'releaseNotes') return;
  for (const [name, value] of Object.entries(path)) {
    if (name.endsWith('Id') && !isUuid(value)) {
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
export function httpRoute(routeId: string, deps: KitDeps, fn: (req: HttpRequest) => Promise<HttpResult>): HttpHandler {
  const route = routeById(routeId);
  checkRouteShape(route);
  const core = async (event: APIGatewayProxyEvent): Promise<HttpResponse> => {
    const correlationId = correlationIdOf(event.headers, randomUUID);
    deps.logger.appendKeys({ correlationId, route: route.id });
    const base = { [CORRELATION_HEADER]: correlationId };
    const started = Date.now();
    try {
      const result = await handle(deps, route, buildRequest(deps, event, correlationId, route), fn);
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

function errorResponse(deps: KitDeps, route: RouteDef, err: unknown, base: Record<string, string>): APIGatewayProxyResult {
  if (err instanceof DomainError) {
    const status = STATUS_OF[err.code];
    const retryAfter = err instanceof RateLimitedError || err instanceof TemporarilyUnavailableError || err instanceof BusyError ? err.retryAfterSeconds : undefined;
    const headers = retryAfter !== undefined ? { ...base, 'Retry-After': String(retryAfter) } : base;
    if (status >= 500) deps.logger.error('request failed', { code: err.code, message: err.message });
    else deps.logger.info('request rejected', { code: err.code, status });
    deps.metrics.addMetric(`Http${Math.floor(status / 100)}xx`, MetricUnit.Count, 1);
    return json(status, errorBody(route.area, err.code, err.message, err.detail, err.param), headers);
  }
  deps.logger.error('unexpected error', err as Error);
  deps.metrics.addMetric('Http5xx', MetricUnit.Count, 1);
  return json(500, errorBody(route.area, 'unavailable', GENERIC_500_MESSAGE), base);
}
