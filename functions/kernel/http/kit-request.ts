/**
 * The request a kit handler receives: path, query, client address and headers of the event, and the
 * body readers its route's body mode allows (functions/kernel/http/kit.ts builds one per request).
 */
import { Readable } from 'node:stream';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { headerOf } from '../domain/http-headers';
import { badRequest } from '../domain/errors';
import { VIEWER_IP_HEADER } from './api-gateway-contract';
import type { BodyMode, RouteDef } from '../route-vocabulary';
import type { KitDeps } from './kit';

/**
 * A request with the caller its admission found (tenancy's keys: `grant`, `principal`, `chat`,
 * `signingSecret`); the kit itself reads none of it.
 */
export type HttpRequest<Caller extends object = object> = HttpRequestBase & Readonly<Caller>;

interface HttpRequestBase {
  readonly event: APIGatewayProxyEvent;
  readonly correlationId: string;
  readonly path: Readonly<Record<string, string>>;
  /** Query parameters, last value wins; a present-empty parameter is `''`. */
  readonly query: Readonly<Record<string, string>>;
  /** The client's address: the connection's peer, or CloudFront's viewer address behind the front door. */
  readonly clientIp: string;
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
 * Lambda (functions/server/http-server.ts, the upload service) pass the request stream of `multipart`
 * routes here, so an upload is checked while it arrives and cut off at its limit.
 */
export interface StreamedBodyEvent extends APIGatewayProxyEvent {
  readonly bodyStream?: Readable;
}

/**
 * The client address. Behind the CloudFront front door (and only there: its origins refuse requests
 * that did not come through it) the front door's `X-Viewer-Ip` names the viewer, the same header the
 * area WAFs count by; anywhere else that header is the client's own word and is ignored.
 */
function clientIpOf(deps: Pick<KitDeps, 'settings'>, event: APIGatewayProxyEvent): string {
  const viewer = deps.settings.trustViewerAddress ? headerOf(event.headers, VIEWER_IP_HEADER) : undefined;
  return viewer || event.requestContext?.identity?.sourceIp || 'unknown';
}

const wrongMode = (route: RouteDef, reader: string) => () => {
  throw new Error(`route ${route.id} reads its body as ${route.body}, not with ${reader}()`);
};

type BodyReaders = Pick<HttpRequestBase, 'jsonBody' | 'textBody' | 'bodyStream'>;

/** Which body readers each mode gives a handler; a new mode does not compile until it is listed here. */
const BODY_READERS = {
  none: (route) => ({ jsonBody: wrongMode(route, 'jsonBody'), textBody: wrongMode(route, 'textBody'), bodyStream: wrongMode(route, 'bodyStream') }),
  json: (route, bytes) => ({
    jsonBody: () => parseJsonObject(bytes().toString('utf8')),
    textBody: () => bytes().toString('utf8'),
    bodyStream: wrongMode(route, 'bodyStream'),
  }),
  text: (route, bytes) => ({
    jsonBody: () => parseJsonObject(bytes().toString('utf8')),
    textBody: () => bytes().toString('utf8'),
    bodyStream: wrongMode(route, 'bodyStream'),
  }),
  multipart: (route, bytes, event) => ({
    jsonBody: wrongMode(route, 'jsonBody'),
    textBody: wrongMode(route, 'textBody'),
    bodyStream: () => event.bodyStream ?? Readable.from([bytes()]),
  }),
} satisfies Record<BodyMode, (route: RouteDef, bytes: () => Buffer, event: StreamedBodyEvent) => BodyReaders>;

/**
 * No request the API defines nests deeper than this. Deeper JSON parses, but every check that walks it
 * (and the DynamoDB marshaller) recurses, and 10,000 levels overflow the stack: a 400 before parsing.
 */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of arrays and objects in `text`, counted outside strings, stopping past `limit`. */
function jsonDepthOver(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

function parseJsonObject(text: string): Record<string, unknown> {
  if (jsonDepthOver(text, MAX_JSON_DEPTH)) throw badRequest(`Invalid JSON body: nested deeper than ${MAX_JSON_DEPTH} levels`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest(text.trim() ? 'Invalid JSON body' : 'Missing JSON body');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest('The JSON body must be an object');
  return parsed as Record<string, unknown>;
}

export function buildRequest(deps: Pick<KitDeps, 'settings'>, event: APIGatewayProxyEvent, correlationId: string, route: RouteDef): HttpRequest {
  const bytes = () => (event.body == null ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8'));
  // Null-prototype maps: a parameter named `constructor` or `__proto__` is an entry, never Object.prototype's.
  const query = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries(event.multiValueQueryStringParameters ?? {})) if (v?.length) query[k] = v[v.length - 1] ?? '';
  for (const [k, v] of Object.entries(event.queryStringParameters ?? {})) if (!Object.hasOwn(query, k)) query[k] = v ?? '';
  const path = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries(event.pathParameters ?? {})) path[k] = v ?? '';
  return {
    event,
    correlationId,
    path,
    query,
    clientIp: clientIpOf(deps, event),
    header: (name) => headerOf(event.headers, name),
    ...BODY_READERS[route.body](route, bytes, event),
  };
}
