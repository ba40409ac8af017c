/**
 * The one Middy chain every HTTP function runs: correlation ids, structured logs, metrics, tracing,
 * authentication and rate limits from the route table, and the mapping of domain errors to each area's
 * exact error bodies; and the Lambda entries that build a route's handler on its first call. Handlers only
 * parse input, call a use case and shape the result.
 */
import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { CORRELATION_HEADER, correlationIdOf } from '../domain/http-headers';
import { errorBody, GENERIC_500_MESSAGE, STATUS_OF } from '../domain/error-bodies';
import { BusyError, DomainError, RateLimitedError, TemporarilyUnavailableError } from '../domain/errors';
import type { RouteDef } from '../route-vocabulary';
import type { Admission, AdmissionRequest } from '../app/admission-ports';
import type { AuditDetail, AuditScope, AuditTrail } from '../app/audit-trail-ports';
import type { PlatformSettings, Telemetry } from '../app/kernel-ports';
import { buildRequest, type HttpRequest } from './kit-request';
import type { RateLimitClass } from '../domain/rate-limits';

/**
 * What the kit needs of a function's deps: logs, metrics, the tunables and the admission of its
 * callers (tenancy's core wiring builds it); each area's wiring builds a superset.
 */
export type KitDeps<Caller extends object = object> = Telemetry & {
  readonly settings: PlatformSettings;
  readonly admission: Admission<Caller>;
  /** Where the kit records the changes console and admin callers make; absent, nothing is recorded. */
  readonly auditTrail?: AuditTrail;
};

export interface HttpResult {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** A streamed body (Server-Sent Events): written chunk by chunk after the status and headers. */
  readonly stream?: AsyncIterable<string>;
  /** A non-JSON body (the RSS feed), sent as is; `headers` carries its Content-Type. */
  readonly text?: string;
  /** `Set-Cookie` values, one header each (the console's session and login cookies). */
  readonly cookies?: readonly string[];
  /**
   * A successful change by a console or admin caller is recorded in the audit log by the kit: this adds
   * what the handler knows (its org, before and after); `recorded` when the use case wrote its own record.
   */
  readonly audit?: AuditDetail | 'recorded';
}

/** A proxy result whose body may be streamed; only routes marked `stream` return one with `stream`. */
export interface HttpResponse extends APIGatewayProxyResult {
  readonly stream?: AsyncIterable<string>;
}

export type HttpHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<HttpResponse>;

function json(status: number, body: unknown, headers: Record<string, string>): APIGatewayProxyResult {
  if (body === undefined) return { statusCode: status, headers, body: '' };
  return { statusCode: status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

/**
 * Wraps a route's logic in the kit. `route` is the handler's own entry of its area's table; `fn` receives
 * the parsed request (with the authenticated principal) and returns a status and body; domain errors it
 * throws become the area's exact error response.
 */
export function httpRoute<Caller extends object>(route: RouteDef, deps: KitDeps<Caller>, fn: (req: HttpRequest<Caller>) => Promise<HttpResult>): HttpHandler {
  checkRouteShape(route);
  const core = async (event: APIGatewayProxyEvent): Promise<HttpResponse> => {
    const correlationId = correlationIdOf(event.headers, randomUUID);
    deps.logger.appendKeys({ correlationId, route: route.id });
    const base = { [CORRELATION_HEADER]: correlationId };
    const started = Date.now();
    try {
      const result = await admitAndRun(deps, route, buildRequest(deps, event, correlationId, route), fn);
      if (result.stream) return { statusCode: result.status, headers: { ...base, ...(result.headers ?? {}) }, body: '', stream: result.stream };
      if (result.text !== undefined) return { statusCode: result.status, headers: { ...base, ...(result.headers ?? {}) }, body: result.text };
      const response = json(result.status, result.body, { ...base, ...(result.headers ?? {}) });
      return result.cookies?.length ? { ...response, multiValueHeaders: { 'Set-Cookie': [...result.cookies] } } : response;
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

function errorResponse(deps: Telemetry, route: RouteDef, err: unknown, base: Record<string, string>): APIGatewayProxyResult {
  if (err instanceof DomainError) {
    const status = STATUS_OF[err.code];
    const retryAfter =
      err instanceof RateLimitedError || err instanceof TemporarilyUnavailableError || err instanceof BusyError ? err.retryAfterSeconds : undefined;
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

/*
 * Who may run a route, and how often: the kit hands the request to its admission (a port, built by
 * tenancy's core wiring), which identifies the caller by the route's auth kind, counts the request
 * against its rate-limit class and admits it; then the kit checks the path ids and runs the route's logic.
 */

const KEY_LIMITS: readonly RateLimitClass[] = ['orgKey', 'chatKey', 'acpKey'];

/** A key-class limit counts per key, so only a route authenticated by that key class can have it. */
export function checkRouteShape(route: RouteDef): void {
  if (KEY_LIMITS.includes(route.rateLimit) && route.rateLimit !== route.auth) {
    throw new Error(`route ${route.id}: rate limit ${route.rateLimit} needs auth ${route.rateLimit}, not ${route.auth}`);
  }
}

function admissionRequestOf(req: HttpRequest): AdmissionRequest {
  return {
    authorization: req.header('authorization'),
    authorizer: req.event.requestContext?.authorizer,
    userArn: req.event.requestContext?.identity?.userArn,
    clientIp: req.clientIp,
    path: req.path,
    header: req.header,
  };
}

/**
 * Authenticates, counts and admits a request, then runs the route. A GET only reads, so it runs
 * concurrently with its rate-limit write (and its result is dropped when the counter says 429); any
 * other method waits for the verdict before it writes anything.
 */
export async function admitAndRun<Caller extends object>(
  deps: KitDeps<Caller>,
  route: RouteDef,
  req0: HttpRequest,
  fn: (req: HttpRequest<Caller>) => Promise<HttpResult>,
): Promise<HttpResult> {
  const { caller, counted, audit } = await deps.admission.admit(route, admissionRequestOf(req0));
  checkPathIds(route, req0.path);
  const req: HttpRequest<Caller> = { ...req0, ...caller };
  if (route.method !== 'GET') {
    await counted;
    const result = await fn(req);
    if (audit && result.status < 400) await recordChange(deps, route, req0, audit, result.audit);
    return result;
  }
  const running = fn(req);
  running.catch(() => undefined);
  await counted;
  return running;
}

/**
 * The audit record of a change that succeeded. The change is made by then: a record that cannot be
 * written is logged whole (to be recovered from the logs) and the caller still gets its answer.
 */
async function recordChange(deps: KitDeps<object>, route: RouteDef, req: HttpRequest, scope: AuditScope, detail: HttpResult['audit']): Promise<void> {
  if (detail === 'recorded' || !deps.auditTrail) return;
  const orgId = detail?.orgId ?? scope.orgId ?? req.path.orgId;
  if (orgId === undefined) return; // a platform-wide change (a release-notes period, a job run) is in no org's log
  const entry = {
    orgId,
    actor: scope.actor,
    action: detail?.action ?? route.id,
    resource: detail?.resource ?? resourceOf(req.path, orgId),
    ip: req.clientIp,
    userAgent: (req.header('user-agent') ?? '').slice(0, 512),
    ...(detail?.before ? { before: detail.before } : {}),
    ...(detail?.after ? { after: detail.after } : {}),
  };
  try {
    await deps.auditTrail.record(entry);
  } catch (err) {
    deps.logger.error('audit record not written', { entry, error: (err as Error).message });
    deps.metrics.addMetric('AuditWriteFailed', MetricUnit.Count, 1);
  }
}

/** The last id of the path names what changed (`{keyId}`: a key); a path with none changed the org. */
function resourceOf(path: Readonly<Record<string, string>>, orgId: string): { type: string; id: string } {
  const last = Object.entries(path)
    .filter(([name]) => name.endsWith('Id') && name !== 'orgId')
    .at(-1);
  return last ? { type: last[0].slice(0, -2), id: last[1] } : { type: 'org', id: orgId };
}

/**
 * A path id of the shape its route declares (RouteDef.pathParams), or 404 `<Name> not found`: anything
 * else names no resource, and never reaches DynamoDB as an oversized key.
 */
function checkPathIds(route: RouteDef, path: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(path)) {
    const param = route.pathParams?.[name];
    if (param && param.read(value) === undefined) {
      const resource = name.replace(/Id$/, '');
      throw new DomainError('not_found', `${resource.charAt(0).toUpperCase()}${resource.slice(1)} not found`);
    }
  }
}

/**
 * The Lambda entry of a route module: builds the handler on first call from `production`, the
 * production deps of the route's area (its `wiring/` folder), so the bundle holds that area's adapters only.
 */
export function lambdaHandler<D extends KitDeps>(factory: (deps: D) => HttpHandler, production: () => D): HttpHandler {
  let built: HttpHandler | undefined;
  return (event: APIGatewayProxyEvent, context: Context) => {
    built ??= factory(production());
    return built(event, context);
  };
}

/** The runtime's response-streaming API (present on Lambda, absent locally and in tests). */
interface ResponseStream {
  write(chunk: string): boolean;
  end(): void;
}
interface AwsLambdaGlobal {
  streamifyResponse(fn: (event: APIGatewayProxyEvent, stream: ResponseStream, context: Context) => Promise<void>): unknown;
  HttpResponseStream: { from(stream: ResponseStream, prelude: { statusCode: number; headers?: Record<string, string> }): ResponseStream };
}

/**
 * The Lambda entry of a streaming route (API Gateway REST response streaming): the same wrapped
 * handler, its status and headers sent as the stream's prelude, then the body chunk by chunk.
 */
export function lambdaStreamHandler<D extends KitDeps>(factory: (deps: D) => HttpHandler, production: () => D): unknown {
  // Other libraries create a bare `globalThis.awslambda`; only the Lambda runtime gives it streamifyResponse.
  const runtime = (globalThis as { awslambda?: Partial<AwsLambdaGlobal> }).awslambda;
  if (typeof runtime?.streamifyResponse !== 'function' || !runtime.HttpResponseStream) return lambdaHandler(factory, production);
  const lambda = runtime as AwsLambdaGlobal;
  let built: HttpHandler | undefined;
  return lambda.streamifyResponse(async (event, responseStream, context) => {
    built ??= factory(production());
    const result = await built(event, context);
    const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, String(v)]));
    const out = lambda.HttpResponseStream.from(responseStream, { statusCode: result.statusCode, headers });
    if (result.stream) for await (const piece of result.stream) out.write(piece);
    else if (result.body) out.write(result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body);
    out.end();
  });
}
