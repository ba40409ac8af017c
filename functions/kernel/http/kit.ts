/**
 * The one Middy chain every HTTP function runs: correlation ids, structured logs, metrics, tracing,
 * authentication and rate limits from the route table, and the mapping of domain errors to each area's
 * exact error bodies. Handlers only parse input, call a use case and shape the result.
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
import type { Admission } from '../app/admission-ports';
import type { PlatformSettings, Telemetry } from '../app/kernel-ports';
import { admitAndRun, checkRouteShape } from './kit-admission';
import { buildRequest, type HttpRequest } from './kit-request';

/**
 * What the kit needs of a function's deps: logs, metrics, the tunables and the admission of its
 * callers (tenancy's core wiring builds it); each area's wiring builds a superset.
 */
export type KitDeps<Caller extends object = object> = Telemetry & {
  readonly settings: PlatformSettings;
  readonly admission: Admission<Caller>;
};

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
