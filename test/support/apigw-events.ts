/**
 * The events AWS hands the platform's functions, in the shapes API Gateway (REST, Lambda proxy
 * integration), its REQUEST authorizers and EventBridge Scheduler send them, so a deployment bundle can
 * be invoked with what it receives on AWS rather than with what the local server builds. Names keep
 * the case the client sent; values are URL-decoded; every map is an own-property object, as JSON gives it.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayEventIdentity, APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import type { KeyAuthorizerResult } from '../../functions/tenancy/authorizers/key-authorizer';
import { authorizerEventFor } from '../../functions/kernel/http/api-gateway-contract';
import type { RouteDef } from '../../functions/kernel/route-vocabulary';

/** One HTTP request as a client sends it: `target` is the path and query, percent-encoded. */
export interface ClientRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** Where the API lives: the stage of one area's REST API. */
export interface ApiStage {
  readonly region: string;
  readonly accountId: string;
  readonly apiId: string;
  readonly stage: string;
}

export interface ProxyEventOptions {
  readonly stage: ApiStage;
  /** The address the client connects from. */
  readonly clientIp: string;
  /**
   * The request came through the CloudFront front door (the function trusts it: `TRUST_VIEWER_ADDRESS`):
   * its viewer-request function adds the viewer's address and host, and API Gateway sees an edge server.
   */
  readonly frontDoor?: { readonly viewerHost: string };
  /** The caller signed the request with SigV4 (`iam` routes): API Gateway puts the caller in `identity`. */
  readonly iamCaller?: boolean;
}

/** A CloudFront edge address (its published range), the peer API Gateway sees behind the front door. */
const EDGE_IP = '130.176.17.42';
const IAM_CALLER = { accessKey: 'ASIAXAMPLEBUNDLETEST', user: 'AROAXAMPLEBUNDLETEST:operator', role: 'PlatformOperator' };

/** The path parameters of `route` in `pathname`, or null when the route has none; throws when it does not match. */
export function pathParametersOf(route: RouteDef, pathname: string): Record<string, string> | null {
  const template = route.path.split('/');
  const actual = pathname.split('/');
  if (template.length !== actual.length) throw new Error(`${pathname} is not a path of ${route.id} (${route.path})`);
  const params: Record<string, string> = {};
  template.forEach((segment, i) => {
    const name = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (name) params[name] = decodeURIComponent(actual[i]!);
    else if (segment !== actual[i]) throw new Error(`${pathname} is not a path of ${route.id} (${route.path})`);
  });
  return Object.keys(params).length ? params : null;
}

function multiMap(pairs: readonly (readonly [string, string])[]): { single: Record<string, string>; multi: Record<string, string[]> } | null {
  if (!pairs.length) return null;
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [k, v] of pairs) {
    // Defined as own data properties: `single[k] = v` with k `__proto__` would set the prototype instead.
    Object.defineProperty(single, k, { value: v, enumerable: true, writable: true, configurable: true });
    if (!Object.hasOwn(multi, k)) Object.defineProperty(multi, k, { value: [], enumerable: true, writable: true, configurable: true });
    multi[k]!.push(v);
  }
  return { single, multi };
}

function identity(opts: ProxyEventOptions, userAgent: string | null): APIGatewayEventIdentity {
  const caller = opts.iamCaller
    ? {
        accessKey: IAM_CALLER.accessKey,
        accountId: opts.stage.accountId,
        caller: IAM_CALLER.user,
        user: IAM_CALLER.user,
        userArn: `arn:aws:sts::${opts.stage.accountId}:assumed-role/${IAM_CALLER.role}/operator`,
      }
    : { accessKey: null, accountId: null, caller: null, user: null, userArn: null };
  return {
    ...caller,
    apiKey: null,
    apiKeyId: null,
    clientCert: null,
    cognitoAuthenticationProvider: null,
    cognitoAuthenticationType: null,
    cognitoIdentityId: null,
    cognitoIdentityPoolId: null,
    principalOrgId: null,
    sourceIp: opts.frontDoor ? EDGE_IP : opts.clientIp,
    userAgent,
  };
}

/** The Lambda proxy event API Gateway builds for `request` to `route`. */
export function restProxyEvent(route: RouteDef, request: ClientRequest, opts: ProxyEventOptions): APIGatewayProxyEvent {
  const { stage } = opts;
  const mark = request.target.indexOf('?');
  const pathname = mark >= 0 ? request.target.slice(0, mark) : request.target;
  const query = multiMap(mark >= 0 ? [...new URLSearchParams(request.target.slice(mark + 1))] : []);
  const domainName = `${stage.apiId}.execute-api.${stage.region}.amazonaws.com`;
  const sent: [string, string][] = [...Object.entries(request.headers), ['Host', domainName]];
  if (request.body !== undefined) sent.push(['Content-Length', String(Buffer.byteLength(request.body))]);
  sent.push(['X-Amzn-Trace-Id', `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomUUID().replace(/-/g, '').slice(0, 24)}`]);
  if (opts.frontDoor) {
    sent.push(
      ['x-viewer-ip', opts.clientIp],
      ['x-viewer-host', opts.frontDoor.viewerHost],
      ['X-Origin-Verify', 'bundle-test-origin-secret'],
      ['Via', '2.0 0123456789abcdef.cloudfront.net (CloudFront)'],
      ['X-Amz-Cf-Id', randomUUID()],
      ['X-Forwarded-For', `${opts.clientIp}, ${EDGE_IP}`],
    );
  } else {
    sent.push(['X-Forwarded-For', opts.clientIp]);
  }
  sent.push(['X-Forwarded-Port', '443'], ['X-Forwarded-Proto', 'https']);
  const headers = multiMap(sent)!;
  const now = new Date();
  return {
    resource: route.path,
    path: pathname,
    httpMethod: request.method,
    headers: headers.single,
    multiValueHeaders: headers.multi,
    queryStringParameters: query?.single ?? null,
    multiValueQueryStringParameters: query?.multi ?? null,
    pathParameters: pathParametersOf(route, pathname),
    stageVariables: null,
    body: request.body ?? null,
    isBase64Encoded: false,
    requestContext: {
      accountId: stage.accountId,
      apiId: stage.apiId,
      authorizer: undefined,
      domainName,
      domainPrefix: stage.apiId,
      extendedRequestId: randomUUID().slice(0, 16),
      httpMethod: request.method,
      identity: identity(opts, headers.single['User-Agent'] ?? headers.single['user-agent'] ?? null),
      path: `/${stage.stage}${pathname}`,
      protocol: 'HTTP/1.1',
      requestId: randomUUID(),
      requestTime: clfTime(now),
      requestTimeEpoch: now.getTime(),
      resourceId: randomUUID().slice(0, 6),
      resourcePath: route.path,
      stage: stage.stage,
    },
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `09/Apr/2015:12:34:56 +0000`: API Gateway's `requestTime` is in the Common Log Format. */
function clfTime(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

/** The event of a REQUEST authorizer in front of `event`'s method (identity source: the Authorization header). */
export function requestAuthorizerEvent(event: APIGatewayProxyEvent, stage: ApiStage): APIGatewayRequestAuthorizerEvent {
  return authorizerEventFor(event, `arn:aws:execute-api:${stage.region}:${stage.accountId}:${stage.apiId}/${stage.stage}/${event.httpMethod}${event.resource}`);
}

/**
 * `event` as the function receives it behind an allowing authorizer: `requestContext.authorizer` holds
 * the principal, the context with every value a string, and the authorizer's latency.
 */
export function withAuthorizer(event: APIGatewayProxyEvent, result: KeyAuthorizerResult, latencyMs: number): APIGatewayProxyEvent {
  const context = Object.fromEntries(Object.entries(result.context ?? {}).map(([k, v]) => [k, String(v)]));
  return { ...event, requestContext: { ...event.requestContext, authorizer: { ...context, principalId: result.principalId, integrationLatency: latencyMs } } };
}
