/**
 * The local HTTP front door: serves the route table the way API Gateway's REST proxy integration does,
 * building the same event for the same handler modules the Lambdas run.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { ErrorArea } from '../domain/error-bodies';
import { CORRELATION_HEADER, correlationIdOf, headerOf } from '../domain/http-headers';
import { gatewayAnswers, KEY_CLASS_OF_AUTH, renderGatewayAnswer, staticPrefixOf, type GatewayResponseType } from '../gateway';
import type { HttpHandler, HttpResponse } from '../http/kit';
import type { StreamedBodyEvent } from '../http/kit-request';
import type { RouteDef } from '../routes';
import type { LocalGateway } from './local-gateway';
import { BodyTooLarge, discardRest, readBody, streamBody } from './request-body';

export interface CompiledRoute {
  readonly route: RouteDef;
  readonly pattern: RegExp;
  readonly params: string[];
  readonly handler: HttpHandler;
}

export function compile(route: RouteDef, handler: HttpHandler): CompiledRoute {
  const params: string[] = [];
  const source = route.path
    .split('/')
    .map((seg) => {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(m[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), params, handler };
}

function isTextual(contentType: string | undefined): boolean {
  return !contentType || /^(application\/(json|x-ndjson|jsonl|x-www-form-urlencoded)|text\/)/i.test(contentType);
}

function toEvent(req: IncomingMessage, url: URL, match: CompiledRoute, values: string[], body: Buffer): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const k = req.rawHeaders[i]!;
    const v = req.rawHeaders[i + 1]!;
    headers[k] = v;
    (multiValueHeaders[k] ??= []).push(v);
  }
  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [k, v] of url.searchParams) {
    query[k] = v;
    (multiQuery[k] ??= []).push(v);
  }
  const textual = isTextual(req.headers['content-type']);
  const hasQuery = url.searchParams.size > 0;
  return {
    resource: match.route.path,
    path: url.pathname,
    httpMethod: req.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: match.params.length ? Object.fromEntries(match.params.map((p, i) => [p, decodeURIComponent(values[i]!)])) : null,
    stageVariables: null,
    body: body.length ? (textual ? body.toString('utf8') : body.toString('base64')) : null,
    isBase64Encoded: body.length > 0 && !textual,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: req.method ?? 'GET',
      path: url.pathname,
      stage: 'local',
      requestId: randomUUID(),
      requestTimeEpoch: Date.now(),
      resourceId: match.route.id,
      resourcePath: match.route.path,
      identity: { sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: req.headers['user-agent'] ?? null } as APIGatewayProxyEvent['requestContext']['identity'],
    },
  };
}

function lambdaContext(route: RouteDef): Context {
  const deadline = Date.now() + (route.timeoutSeconds ?? 29) * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: route.id,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${route.id}`,
    memoryLimitInMB: String(route.memoryMb ?? 512),
    awsRequestId: randomUUID(),
    logGroupName: `/local/${route.id}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

async function send(res: ServerResponse, result: HttpResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
  for (const [k, v] of Object.entries(result.multiValueHeaders ?? {})) headers[k] = v.map(String);
  res.writeHead(result.statusCode, headers);
  if (result.stream) {
    // Like Lambda response streaming: each chunk goes out as soon as the handler yields it.
    res.flushHeaders();
    for await (const piece of result.stream) {
      if (res.destroyed) break;
      res.write(piece);
    }
    res.end();
    return;
  }
  res.end(result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined);
}

/** Each area's path prefix with one of its routes, to answer an unknown path under it in that area's shape. */
function areaPrefixes(routes: readonly CompiledRoute[]): { readonly prefix: string; readonly route: CompiledRoute }[] {
  const byArea = new Map<string, CompiledRoute[]>();
  for (const r of routes) byArea.set(r.route.area, [...(byArea.get(r.route.area) ?? []), r]);
  return [...byArea.values()].map((members) => ({ prefix: `${staticPrefixOf(members.map((m) => m.route.path))}/`, route: members[0]! }));
}

function sendGatewayAnswer(res: ServerResponse, route: RouteDef, event: APIGatewayProxyEvent, type: GatewayResponseType, authorizer?: Readonly<Record<string, unknown>>): void {
  const answer = renderGatewayAnswer(route.area satisfies ErrorArea, gatewayAnswers(KEY_CLASS_OF_AUTH[route.auth])[type], authorizer ? { authorizer } : {});
  // Like the functions (API Gateway echoes a sent one; the local server also makes one up, as the kit does).
  const correlationId = correlationIdOf(event.headers, randomUUID);
  res.writeHead(answer.status, { 'Content-Type': 'application/json; charset=utf-8', [CORRELATION_HEADER]: correlationId, ...answer.headers });
  res.end(JSON.stringify(answer.body));
}

/**
 * What API Gateway does before a function runs: a key route's `Authorization` header goes through the
 * area's key authorizer (cached); a missing header is UNAUTHORIZED and a denied key ACCESS_DENIED, both
 * in the area's error shape. Returns false when it answered the request itself.
 */
async function passGateway(gateway: LocalGateway, route: RouteDef, event: APIGatewayProxyEvent, res: ServerResponse, log: (line: object) => void): Promise<boolean> {
  const keyClass = KEY_CLASS_OF_AUTH[route.auth];
  if (!keyClass) return true;
  const authorization = headerOf(event.headers, 'authorization');
  if (!authorization) {
    sendGatewayAnswer(res, route, event, 'UNAUTHORIZED');
    return false;
  }
  let verdict: Awaited<ReturnType<LocalGateway['authorize']>>;
  try {
    verdict = await gateway.authorize(keyClass, authorization, event);
  } catch (err) {
    // As API Gateway does when an authorizer fails (the key store is down, say): nothing is cached.
    log({ level: 'ERROR', message: 'key authorizer failed', keyClass, error: String(err) });
    sendGatewayAnswer(res, route, event, 'AUTHORIZER_FAILURE');
    return false;
  }
  if (!verdict.allowed) {
    sendGatewayAnswer(res, route, event, 'ACCESS_DENIED', verdict.context);
    return false;
  }
  (event.requestContext as { authorizer: unknown }).authorizer = { ...verdict.context, principalId: verdict.principalId };
  return true;
}

function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ error: { code, message } }));
}

/** The server's request handling, for servers that add their own paths (the upload service's health check). */
export function requestListener(routes: CompiledRoute[], gateway: LocalGateway | undefined, log: (line: object) => void): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const prefixes = areaPrefixes(routes);
  return async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://local');
      const byPath = routes.map((r) => ({ r, m: r.pattern.exec(url.pathname) })).filter((x) => x.m);
      const hit = byPath.find((x) => x.r.route.method === req.method);
      if (!hit) {
        if (byPath.length) {
          res.setHeader('Allow', byPath.map((x) => x.r.route.method).join(', '));
          return sendError(res, 405, 'method_not_allowed', `Method ${req.method} is not allowed on ${url.pathname}`);
        }
        // Under an area's prefix, API Gateway answers in that area's shape (MISSING_AUTHENTICATION_TOKEN).
        const area = prefixes.find((p) => url.pathname.startsWith(p.prefix))?.route;
        if (area) return sendGatewayAnswer(res, area.route, toEvent(req, url, area, [], Buffer.alloc(0)), 'MISSING_AUTHENTICATION_TOKEN');
        return sendError(res, 404, 'not_found', `No route for ${req.method} ${url.pathname}`);
      }
      const streamed = hit.r.route.body === 'multipart';
      let body: Buffer = Buffer.alloc(0);
      if (!streamed) {
        try {
          body = await readBody(req);
        } catch (err) {
          if (!(err instanceof BodyTooLarge)) throw err;
          // API Gateway's own answer to a body over its 10 MB quota, in the area's error shape.
          discardRest(req);
          return sendGatewayAnswer(res, hit.r.route, toEvent(req, url, hit.r, hit.m!.slice(1), Buffer.alloc(0)), 'REQUEST_TOO_LARGE');
        }
      }
      const event: StreamedBodyEvent = { ...toEvent(req, url, hit.r, hit.m!.slice(1), body), ...(streamed ? { bodyStream: streamBody(req, res) } : {}) };
      if (streamed && !req.complete) res.setHeader('Connection', 'close');
      // Without a gateway (the upload service on AWS) the kit resolves keys itself, as on a direct invocation.
      if (gateway && !(await passGateway(gateway, hit.r.route, event, res, log))) return;
      await send(res, await hit.r.handler(event, lambdaContext(hit.r.route)));
    } catch (err) {
      // A path parameter with a malformed percent-escape (`%ZZ`) cannot be decoded: the client's error.
      if (err instanceof URIError) return sendError(res, 400, 'bad_request', 'Malformed percent-encoding in the URL path');
      log({ level: 'ERROR', message: 'local server error', error: String(err) });
      if (!res.headersSent) sendError(res, 500, 'internal', 'Internal server error');
    }
  };
}
