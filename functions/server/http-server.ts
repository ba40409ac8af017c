/**
 * The local HTTP front door: serves the route table the way API Gateway's REST proxy integration does,
 * building the same event for the same handler modules the Lambdas run.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { ErrorArea } from '../kernel/domain/error-bodies';
import { CORRELATION_HEADER, correlationIdOf, headerOf } from '../kernel/domain/http-headers';
import { gatewayAnswers, KEY_CLASS_OF_AUTH, renderGatewayAnswer, type GatewayResponseType } from '../kernel/http/api-gateway-contract';
import type { HttpResponse } from '../kernel/http/kit';
import type { StreamedBodyEvent } from '../kernel/http/kit-request';
import type { RouteDef } from '../kernel/route-vocabulary';
import type { KeyClass } from '../kernel/http/api-gateway-contract';
import { BodyAborted, BodyTooLarge, discardRest, readBody, streamBody } from './request-body';
import { clientErrorListener, writeRawAnswer } from './client-errors';
import { MAX_TARGET_BYTES, parseRequestTarget, type RequestTarget } from './request-target';
import { Router, type CompiledRoute, type RouterAnswer } from './router';

/** A key authorizer's verdict, as API Gateway applies it: allowed with its context, or denied. */
export type GatewayVerdict =
  | { readonly allowed: true; readonly context: Readonly<Record<string, string>>; readonly principalId: string }
  | { readonly allowed: false; readonly context: Readonly<Record<string, unknown>> };

/**
 * API Gateway's key check in front of a server that has none: locally the key authorizers run in the
 * process (functions/local/local-api-gateway.ts). Behind the upload service's load balancer there is
 * none, and the kit resolves keys itself.
 */
export interface KeyCheck {
  authorize(keyClass: KeyClass, authorization: string, event: APIGatewayProxyEvent): Promise<GatewayVerdict>;
}

export { compile, type CompiledRoute } from './router';

function isTextual(contentType: string | undefined): boolean {
  return !contentType || /^(application\/(json|x-ndjson|jsonl|x-www-form-urlencoded)|text\/)/i.test(contentType);
}

/**
 * Header and query maps are null-prototype objects: a name such as `constructor` or `__proto__` is
 * an entry like any other, never a property of Object.prototype (on AWS the event arrives as parsed
 * JSON, where such names are own properties too).
 */
function dictionary<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

function toEvent(
  req: IncomingMessage,
  target: RequestTarget,
  route: RouteDef,
  params: Readonly<Record<string, string>> | null,
  body: Buffer,
): APIGatewayProxyEvent {
  const headers = dictionary<string>();
  const multiValueHeaders = dictionary<string[]>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const k = req.rawHeaders[i]!;
    const v = req.rawHeaders[i + 1]!;
    headers[k] = v;
    (multiValueHeaders[k] ??= []).push(v);
  }
  const query = dictionary<string>();
  const multiQuery = dictionary<string[]>();
  for (const [k, v] of target.query) {
    query[k] = v;
    (multiQuery[k] ??= []).push(v);
  }
  const textual = isTextual(req.headers['content-type']);
  const hasQuery = target.query.length > 0;
  return {
    resource: route.path,
    path: target.pathname,
    httpMethod: req.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: params && Object.keys(params).length ? params : null,
    stageVariables: null,
    body: body.length ? (textual ? body.toString('utf8') : body.toString('base64')) : null,
    isBase64Encoded: body.length > 0 && !textual,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: null,
      protocol: 'HTTP/1.1',
      httpMethod: req.method ?? 'GET',
      path: target.pathname,
      stage: 'local',
      requestId: randomUUID(),
      requestTimeEpoch: Date.now(),
      resourceId: route.id,
      resourcePath: route.path,
      identity: {
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: req.headers['user-agent'] ?? null,
      } as APIGatewayProxyEvent['requestContext']['identity'],
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
    try {
      for await (const piece of result.stream) {
        if (res.destroyed) break;
        res.write(piece);
      }
    } catch (err) {
      // The status line is out: the one honest way left to say the answer is incomplete is to cut it.
      res.destroy(err as Error);
      throw err;
    }
    res.end();
    return;
  }
  res.end(result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : undefined);
}

function sendGatewayAnswer(
  res: ServerResponse,
  route: RouteDef,
  event: APIGatewayProxyEvent,
  type: GatewayResponseType,
  authorizer?: Readonly<Record<string, unknown>>,
): void {
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
async function passGateway(
  gateway: KeyCheck,
  route: RouteDef,
  event: APIGatewayProxyEvent,
  res: ServerResponse,
  log: (line: object) => void,
): Promise<boolean> {
  const keyClass = KEY_CLASS_OF_AUTH[route.auth];
  if (!keyClass) return true;
  const authorization = headerOf(event.headers, 'authorization');
  if (!authorization) {
    sendGatewayAnswer(res, route, event, 'UNAUTHORIZED');
    return false;
  }
  let verdict: GatewayVerdict;
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

function sendAnswer(res: ServerResponse, req: IncomingMessage, answer: RouterAnswer): void {
  res.writeHead(answer.status, { ...answer.headers, [CORRELATION_HEADER]: correlationIdOf(req.headers as Record<string, string>, randomUUID) });
  res.end(answer.body);
}

/**
 * The server's request handling, for servers that add their own paths (the upload service's health
 * check). Whatever fails while a request is parsed, routed, read or answered ends that request alone:
 * an answer in its area's shape while none was sent, a cut connection after that, and a log line.
 */
export function requestListener(
  routes: CompiledRoute[],
  gateway: KeyCheck | undefined,
  log: (line: object) => void,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const router = new Router(routes);
  return async (req, res) => {
    const target = parseRequestTarget(req.url);
    let area: RouteDef | undefined;
    try {
      area = router.areaOf(target.pathname);
      if ((req.url ?? '').length > MAX_TARGET_BYTES)
        return sendAnswer(res, req, router.answer(area, 'uri_too_long', `The request-target is longer than ${MAX_TARGET_BYTES} bytes`));
      if (req.headers.host === undefined && req.httpVersion === '1.1')
        return sendAnswer(res, req, router.answer(area, 'bad_request', 'An HTTP/1.1 request needs a Host header'));
      const match = router.match(req.method ?? '', target.pathname);
      if (match.kind !== 'route') return sendAnswer(res, req, router.unmatched(req.method ?? '', target.pathname, match));
      const { hit, params } = match;
      area = hit.route;
      const streamed = hit.route.body === 'multipart';
      let body: Buffer = Buffer.alloc(0);
      if (!streamed) {
        try {
          body = await readBody(req);
        } catch (err) {
          if (err instanceof BodyAborted) return void res.destroy();
          if (!(err instanceof BodyTooLarge)) throw err;
          // API Gateway's own answer to a body over its 10 MB quota, in the area's error shape.
          discardRest(req, res);
          return sendGatewayAnswer(res, hit.route, toEvent(req, target, hit.route, params, Buffer.alloc(0)), 'REQUEST_TOO_LARGE');
        }
      }
      const event: StreamedBodyEvent = { ...toEvent(req, target, hit.route, params, body), ...(streamed ? { bodyStream: streamBody(req, res) } : {}) };
      if (streamed && !req.complete) res.setHeader('Connection', 'close');
      // Without a gateway (the upload service on AWS) the kit resolves keys itself, as on a direct invocation.
      if (gateway && !(await passGateway(gateway, hit.route, event, res, log))) return;
      await send(res, await hit.handler(event, lambdaContext(hit.route)));
    } catch (err) {
      log({ level: 'ERROR', message: 'local server error', error: String(err), stack: (err as Error)?.stack });
      if (!res.headersSent && !res.destroyed) return sendAnswer(res, req, router.internalError(area));
      res.destroy();
    }
  };
}

/**
 * A front door's log: each line at the level it names (`ERROR`, `WARN`, otherwise INFO) with its own
 * message, so an alarm on ERROR lines sees the server's failures as it sees the functions'.
 */
export function frontDoorLog(logger: Logger, fallbackMessage: string): (line: object) => void {
  return (line) => {
    const { level, message, ...rest } = line as { level?: unknown; message?: unknown } & Record<string, unknown>;
    const text = typeof message === 'string' ? message : fallbackMessage;
    if (level === 'ERROR') logger.error(text, rest);
    else if (level === 'WARN') logger.warn(text, rest);
    else logger.info(text, rest);
  };
}

/**
 * The HTTP server a front door runs on. Node answers a request without `Host` with its own empty 400;
 * here the listener does, in the area's shape (HTTP/1.1 still requires the header).
 */
export function frontDoorServer(): Server {
  return createServer({ requireHostHeader: false });
}

/**
 * Serves `listener` on `server`, and answers what Node's parser refuses in the router's shapes
 * (functions/server/client-errors.ts). The local platform and the upload service both serve through it.
 */
export function attachFrontDoor(
  server: Server,
  routes: CompiledRoute[],
  listener: (req: IncomingMessage, res: ServerResponse) => unknown,
  log: (line: object) => void,
): Server {
  const router = new Router(routes);
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    Promise.resolve()
      .then(() => listener(req, res))
      .catch((err: unknown) => {
        log({ level: 'ERROR', message: 'request listener failed', error: String(err) });
        if (!res.headersSent && !res.destroyed) sendAnswer(res, req, router.internalError(router.areaOf(parseRequestTarget(req.url).pathname)));
        else res.destroy();
      });
  };
  server.on('request', serve);
  // An `Expect` other than 100-continue: Node would answer 417 with no body. RFC 9110 lets a server
  // ignore an expectation it does not know, so the request is served like any other.
  server.on('checkExpectation', serve);
  // CONNECT has no route here; without a listener Node drops the connection with no answer at all.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const pathname = parseRequestTarget(req.url).pathname;
    const match = router.match(req.method ?? 'CONNECT', pathname);
    writeRawAnswer(
      socket,
      match.kind === 'route'
        ? router.answer(match.hit.route, 'not_allowed', 'CONNECT is not supported', {}, 'method_not_allowed')
        : router.unmatched(req.method ?? 'CONNECT', pathname, match),
    );
  });
  server.on('clientError', clientErrorListener(router, log));
  return server;
}
