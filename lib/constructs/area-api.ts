/**
 * The REST API of one area, built by walking that area's routes of the route table: one function,
 * one resource path and one method per route; a key authorizer per bearer-key class in front of the
 * routes that use it, with a usage plan per class as the outer per-key guard; and API Gateway's own
 * answers in the area's documented error shape (functions/kernel/http/api-gateway-contract.ts, docs/adr/0012).
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import {
  AUTHORIZER_CACHE_TTL_SECONDS,
  AUTHORIZER_HANDLER,
  AUTHORIZER_IDENTITY_HEADER,
  GATEWAY_ECHOED_HEADERS,
  KEY_CLASS_OF_AUTH,
  gatewayAnswers,
  gatewayTemplate,
  usagePlanThrottle,
  type GatewayResponseType,
  type KeyClass,
} from '../../functions/kernel/http/api-gateway-contract';
import type { Area, RouteDef } from '../../functions/kernel/route-vocabulary';
import { AppFunction } from './app-function';
import type { FunctionContext } from './function-context';

export interface AreaApiProps {
  readonly context: FunctionContext;
  readonly area: Area;
  /** The area's routes of functions/routes.ts. */
  readonly routes: readonly RouteDef[];
}

/** A route with the function and API Gateway method built for it. */
export interface BuiltRoute {
  readonly route: RouteDef;
  readonly fn: AppFunction;
  readonly method: apigateway.Method;
}

/** The bearer-key class whose authorizer guards a route, if any. */
export const keyClassOf = (route: RouteDef): KeyClass | undefined => KEY_CLASS_OF_AUTH[route.auth];

const IN_FUNCTION_AUTH_REASON =
  'Public and signing-secret routes authenticate in the function, as the spec makes them public or keyed by the subscription secret (a per-subscription credential API Gateway cannot know); AWS WAF, the stage throttle and the exact per-IP limits in the function guard them.';

export class AreaApi extends Construct {
  public readonly api: apigateway.RestApi;
  public readonly routes: readonly BuiltRoute[];
  public readonly accessLogs: logs.LogGroup;
  public readonly usagePlans: Partial<Record<KeyClass, apigateway.UsagePlan>> = {};
  public readonly authorizers: Partial<Record<KeyClass, { readonly authorizer: apigateway.RequestAuthorizer; readonly fn: AppFunction }>> = {};

  constructor(scope: Construct, id: string, props: AreaApiProps) {
    super(scope, id);
    const { config } = props.context;
    const keyClasses = [...new Set(props.routes.map(keyClassOf).filter((k): k is KeyClass => k !== undefined))];

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: config.logRetention,
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    this.api = new apigateway.RestApi(this, 'Api', {
      restApiName: `platform-${config.stage}-${props.area}`,
      description: `Application Platform API, area ${props.area} (functions/routes.ts)`,
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      cloudWatchRole: false,
      // Usage plans meter the key the authorizer names (usageIdentifierKey), not an x-api-key header.
      ...(keyClasses.length ? { apiKeySourceType: apigateway.ApiKeySourceType.AUTHORIZER } : {}),
      deployOptions: {
        stageName: config.stage,
        tracingEnabled: true,
        throttlingRateLimit: config.apiThrottle.rateLimit,
        throttlingBurstLimit: config.apiThrottle.burstLimit,
        accessLogDestination: new apigateway.LogGroupLogDestination(this.accessLogs),
        accessLogFormat: accessLogFormat(),
      },
    });

    for (const keyClass of keyClasses) this.addKeyClass(keyClass, props.context);
    this.addGatewayResponses(props.area, keyClasses[0]);
    this.routes = props.routes.map((route) => this.addRoute(route, props.context));

    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'Requests are validated in each handler with zod, because the spec fixes the exact error status and body per API area (for example 400 bad_request with a set message pattern), which API Gateway request validators cannot produce.',
    });
    Validations.of(this.api.deploymentStage).acknowledge({
      id: 'AwsSolutions-APIG6',
      reason:
        "Execution logging needs the account-wide API Gateway CloudWatch role (AWS::ApiGateway::Account, one per account and region) that a per-stage stack should not own. JSON access logs, X-Ray tracing and the functions' own structured logs cover per-request diagnosis.",
    });
  }

  /** The area API's stage, as the admin API names it to flush the authorizer cache. */
  public get stageTarget(): { restApiId: string; stageName: string } {
    return { restApiId: this.api.restApiId, stageName: this.api.deploymentStage.stageName };
  }

  private addKeyClass(keyClass: KeyClass, context: FunctionContext): void {
    const fn = new AppFunction(this, `${keyClass}Authorizer`, {
      context,
      handler: AUTHORIZER_HANDLER[keyClass],
      grants: ['table:read'],
      memoryMb: 512,
    });
    const authorizer = new apigateway.RequestAuthorizer(this, `${keyClass}RequestAuthorizer`, {
      handler: fn.function,
      identitySources: [apigateway.IdentitySource.header(AUTHORIZER_IDENTITY_HEADER)],
      resultsCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS),
    });
    this.authorizers[keyClass] = { authorizer, fn };
    const throttle = usagePlanThrottle(keyClass);
    const plan = this.api.addUsagePlan(`${keyClass}UsagePlan`, {
      name: `platform-${context.config.stage}-${keyClass}`,
      description: `Outer per-key guard of ${keyClass} keys; the exact limit is enforced in the functions (docs/design.md section 5)`,
      throttle: { rateLimit: throttle.rateLimit, burstLimit: throttle.burstLimit },
    });
    plan.addApiStage({ stage: this.api.deploymentStage });
    this.usagePlans[keyClass] = plan;
  }

  private addGatewayResponses(area: Area, keyClass: KeyClass | undefined): void {
    const answers = gatewayAnswers(keyClass);
    for (const type of Object.keys(answers) as GatewayResponseType[]) {
      const answer = answers[type];
      this.api.addGatewayResponse(`Gateway${type}`, {
        type: apigateway.ResponseType.of(type),
        ...(answer.status !== undefined ? { statusCode: String(answer.status) } : {}),
        responseHeaders: {
          'Content-Type': "'application/json'",
          ...(answer.retryAfterSeconds !== undefined ? { 'Retry-After': `'${answer.retryAfterSeconds}'` } : {}),
          ...Object.fromEntries(GATEWAY_ECHOED_HEADERS.map((h) => [h, `method.request.header.${h}`])),
        },
        templates: { 'application/json': gatewayTemplate(area, answer) },
      });
    }
  }

  private addRoute(route: RouteDef, context: FunctionContext): BuiltRoute {
    const fn = new AppFunction(this, route.id, {
      context,
      handler: route.handler,
      grants: route.grants,
      timeoutSeconds: route.timeoutSeconds,
      memoryMb: route.memoryMb,
    });
    const keyClass = keyClassOf(route);
    const integration = new apigateway.LambdaIntegration(fn.function, {
      proxy: true,
      allowTestInvoke: false,
      // Streaming routes answer through Lambda response streaming (Server-Sent Events reach the
      // client as they are produced); the function is wrapped with awslambda.streamifyResponse.
      ...(route.stream ? { responseTransferMode: apigateway.ResponseTransferMode.STREAM, timeout: Duration.minutes(5) } : {}),
    });
    const options: apigateway.MethodOptions =
      route.auth === 'iam'
        ? { authorizationType: apigateway.AuthorizationType.IAM }
        : keyClass
          ? { authorizer: this.authorizers[keyClass]!.authorizer, authorizationType: apigateway.AuthorizationType.CUSTOM, apiKeyRequired: true }
          : { authorizationType: apigateway.AuthorizationType.NONE };
    const method = this.api.root.resourceForPath(route.path).addMethod(route.method, integration, options);
    if (route.auth === 'iam') {
      Validations.of(method).acknowledge({
        id: 'AwsSolutions-COG4',
        reason: 'The admin API is called by operators and the admin CLI with IAM (SigV4) credentials (docs/design.md section 6); there are no Cognito users.',
      });
    } else if (keyClass) {
      Validations.of(method).acknowledge({
        id: 'AwsSolutions-COG4',
        reason: 'Callers are services holding platform API keys (bearer tokens resolved by the Lambda REQUEST authorizer of docs/adr/0012), not Cognito users.',
      });
    } else {
      Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason: IN_FUNCTION_AUTH_REASON });
      Validations.of(method).acknowledge({ id: 'AwsSolutions-COG4', reason: IN_FUNCTION_AUTH_REASON });
    }
    return { route, fn, method };
  }
}

/** JSON access log line: enough to trace a request across CloudFront, WAF, API Gateway and the function. */
function accessLogFormat(): apigateway.AccessLogFormat {
  const F = apigateway.AccessLogField;
  return apigateway.AccessLogFormat.custom(
    JSON.stringify({
      requestId: F.contextRequestId(),
      xrayTraceId: F.contextXrayTraceId(),
      ip: F.contextIdentitySourceIp(),
      userAgent: F.contextIdentityUserAgent(),
      caller: F.contextIdentityUserArn(),
      apiKeyId: F.contextIdentityApiKeyId(),
      method: F.contextHttpMethod(),
      resourcePath: F.contextResourcePath(),
      path: F.contextPath(),
      status: F.contextStatus(),
      responseLength: F.contextResponseLength(),
      latencyMs: F.contextResponseLatency(),
      integrationLatencyMs: F.contextIntegrationLatency(),
      authorizerLatencyMs: F.contextAuthorizerIntegrationLatency(),
      integrationStatus: F.contextIntegrationStatus(),
      errorType: F.contextErrorResponseType(),
      error: F.contextErrorMessage(),
      integrationError: F.contextIntegrationErrorMessage(),
      wafStatus: F.contextWafResponseCode(),
    }),
  );
}
