/**
 * API Gateway in front of deployment bundles: a request becomes the proxy event API Gateway would
 * build, a key route's `Authorization` first goes through the key authorizer's own bundle (its verdict
 * cached per header value, as API Gateway caches it), a denied or missing key gets the gateway's own
 * answer, and an admitted request runs the route's bundle with its function's environment from the
 * synthesized template. Tests that compare a deployment's answers with the local server's go through it.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { functionDescription } from '../../lib/constructs/app-function';
import type { Template } from 'aws-cdk-lib/assertions';
import type { KeyAuthorizerResult } from '../../functions/tenancy/authorizers/key-authorizer';
import { CORRELATION_HEADER, headerOf } from '../../functions/kernel/domain/http-headers';
import { grantFromContext } from '../../functions/tenancy/domain/key-grant';
import {
  AUTHORIZER_HANDLER,
  gatewayAnswers,
  KEY_CLASS_OF_AUTH,
  policyAllows,
  renderGatewayAnswer,
  type GatewayResponseType,
} from '../../functions/kernel/http/api-gateway-contract';
import type { RouteDef } from '../../functions/kernel/route-vocabulary';
import { requestAuthorizerEvent, restProxyEvent, withAuthorizer, type ApiStage, type ClientRequest } from './apigw-events';
import { buildLambdaBundle, invokeLambdaBundle, localFunctionEnvironment, lambdaTimeoutMs, type LambdaBundle, type LocalResources } from './lambda-bundle';

/** KMS has no local twin: functions granted `secrets:*` get a key ARN that nothing here opens. */

/** What the client gets back. `gateway` names API Gateway's own answer, when no function answered. */
export interface BundleAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly gateway?: GatewayResponseType;
  /** Why the authorizer failed, when the answer is AUTHORIZER_FAILURE (the client never sees it). */
  readonly failure?: string;
}

/** Builds the bundles of platform functions (`export/http/org-apps-list`, `tenancy/authorizers/…`, `<area>/workers/…`) in parallel, by entry module. */
export async function buildPlatformBundles(handlers: readonly string[]): Promise<Map<string, LambdaBundle>> {
  const built = await Promise.allSettled(handlers.map(async (h) => [h, await buildLambdaBundle(`functions/${h}.handler.ts`)] as const));
  const bundles = new Map(built.flatMap((b) => (b.status === 'fulfilled' ? [b.value] : [])));
  const failed = built.find((b) => b.status === 'rejected');
  if (failed) {
    for (const b of bundles.values()) b.remove();
    throw failed.reason;
  }
  return bundles;
}

/** The entry module of the function that serves `route`. */
export const routeFunction = (route: RouteDef): string => route.handler;

export interface BundleGatewayOptions {
  readonly template: Template;
  readonly local: LocalResources;
  readonly bundles: ReadonlyMap<string, LambdaBundle>;
  readonly stage: ApiStage;
  /** The client's address, and the host it asked for (what the front door reports to the functions). */
  readonly clientIp: string;
  readonly viewerHost: string;
}

export class BundleGateway {
  private readonly verdicts = new Map<string, KeyAuthorizerResult>();
  /** Child processes started, by function description: the tier's cost. */
  readonly invocations = new Map<string, number>();

  constructor(private readonly opts: BundleGatewayOptions) {}

  /** The environment Lambda gives the function `description`, its resources pointed at the local backends. */
  envOf(description: string): Record<string, string> {
    return localFunctionEnvironment(this.opts.template, functionDescription(description), this.opts.local);
  }

  /** Invokes the bundle of function `description` with `event`, as Lambda would, within the function's timeout (20 s at most here). */
  async invoke<R>(description: string, event: unknown): Promise<{ result: R; logs: readonly Record<string, unknown>[] }> {
    const bundle = this.opts.bundles.get(description);
    if (!bundle) throw new Error(`no bundle built for ${description}`);
    this.invocations.set(description, (this.invocations.get(description) ?? 0) + 1);
    const timeoutMs = Math.min(lambdaTimeoutMs(this.opts.template, functionDescription(description)), 20_000);
    return invokeLambdaBundle<R>(bundle.path, this.envOf(description), event, { timeoutMs });
  }

  /** What a client gets for `request` to `route` from API Gateway and the deployed functions. */
  async send(route: RouteDef, request: ClientRequest): Promise<BundleAnswer> {
    const fn = routeFunction(route);
    const frontDoor = this.envOf(fn).TRUST_VIEWER_ADDRESS === 'true' ? { viewerHost: this.opts.viewerHost } : undefined;
    let event = restProxyEvent(route, request, {
      stage: this.opts.stage,
      clientIp: this.opts.clientIp,
      ...(frontDoor ? { frontDoor } : {}),
      iamCaller: route.auth === 'iam',
    });
    const keyClass = KEY_CLASS_OF_AUTH[route.auth];
    if (keyClass) {
      // The authorizer's identity source: without the header API Gateway answers before calling it.
      const authorization = headerOf(event.headers, 'authorization');
      if (!authorization) return this.gatewayAnswer(route, request, 'UNAUTHORIZED');
      const cacheKey = `${keyClass}\n${authorization}`;
      let verdict = this.verdicts.get(cacheKey);
      const started = Date.now();
      if (!verdict) {
        try {
          verdict = (await this.invoke<KeyAuthorizerResult>(AUTHORIZER_HANDLER[keyClass], requestAuthorizerEvent(event, this.opts.stage))).result;
        } catch (err) {
          // A failing authorizer is not cached, and the client gets the area's 500.
          return { ...this.gatewayAnswer(route, request, 'AUTHORIZER_FAILURE'), failure: String(err) };
        }
        this.verdicts.set(cacheKey, verdict);
      }
      if (!policyAllows(verdict)) return this.gatewayAnswer(route, request, 'ACCESS_DENIED', verdict.context ?? {});
      event = withAuthorizer(event, verdict, Date.now() - started);
      // A context the functions do not take as a grant would pass unnoticed: they resolve the key again.
      if (grantFromContext(event.requestContext.authorizer)?.keyClass !== keyClass)
        throw new Error(`the ${keyClass} authorizer's context is not a grant the functions take: ${JSON.stringify(verdict.context)}`);
    }
    const { result } = await this.invoke<APIGatewayProxyResult>(fn, event);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(result.headers ?? {})) headers[k.toLowerCase()] = String(v);
    for (const [k, v] of Object.entries(result.multiValueHeaders ?? {})) headers[k.toLowerCase()] = v.map(String).join(', ');
    return { status: result.statusCode, headers, body: result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body };
  }

  /**
   * The gateway response the area's API defines (lib/constructs/area-api.ts): its status and body as
   * functions/kernel/http/api-gateway-contract.ts renders them, `Content-Type: application/json`, its Retry-After, and the
   * request's X-Correlation-ID echoed.
   */
  private gatewayAnswer(route: RouteDef, request: ClientRequest, type: GatewayResponseType, authorizer?: Readonly<Record<string, unknown>>): BundleAnswer {
    const answer = renderGatewayAnswer(route.area, gatewayAnswers(KEY_CLASS_OF_AUTH[route.auth])[type], authorizer ? { authorizer } : {});
    const correlationId = headerOf(request.headers, CORRELATION_HEADER);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...(correlationId ? { [CORRELATION_HEADER.toLowerCase()]: correlationId } : {}),
    };
    for (const [k, v] of Object.entries(answer.headers)) headers[k.toLowerCase()] = v;
    return { status: answer.status, headers, body: JSON.stringify(answer.body), gateway: type };
  }
}
