/**
 * The REST API, built by walking the route table: one function, one resource path and one method
 * per route. Authentication of every non-admin route happens in the function (hashed bearer-key
 * lookup, DESIGN.md §4); the admin API is IAM-authenticated (DESIGN.md §6).
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteDef } from '../../functions/routes';
import { AppFunction, type FunctionContext } from './app-function';

export interface HttpApiProps {
  readonly context: FunctionContext;
  /** The route table (functions/routes.ts). */
  readonly routes: readonly RouteDef[];
}

/** A route with the function and API Gateway method built for it. */
export interface BuiltRoute {
  readonly route: RouteDef;
  readonly fn: AppFunction;
  readonly method: apigateway.Method;
}

const IN_FUNCTION_AUTH_REASON =
  'Authentication is done in the function (SHA-256 hash lookup of the bearer key, DESIGN.md section 4): the same code runs locally and on AWS, the key record is needed there anyway for scope checks and the per-key rate limit, and the spec fixes 401/403 bodies per API area that one API-wide gateway response cannot express. Public routes are public by the spec. AWS WAF and stage throttling are the outer guard.';

export class HttpApi extends Construct {
  public readonly api: apigateway.RestApi;
  public readonly routes: readonly BuiltRoute[];
  public readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: HttpApiProps) {
    super(scope, id);
    const { config } = props.context;

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: config.logRetention,
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    this.api = new apigateway.RestApi(this, 'Api', {
      restApiName: `platform-${config.stage}`,
      description: 'Application Platform API (functions/routes.ts)',
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      cloudWatchRole: false,
      deployOptions: {
        stageName: config.stage,
        tracingEnabled: true,
        throttlingRateLimit: config.apiThrottle.rateLimit,
        throttlingBurstLimit: config.apiThrottle.burstLimit,
        accessLogDestination: new apigateway.LogGroupLogDestination(this.accessLogs),
        accessLogFormat: accessLogFormat(),
      },
    });

    // Every 429 carries Retry-After (DESIGN.md §5); the stage throttle is a per-second token bucket.
    this.api.addGatewayResponse('Throttled', {
      type: apigateway.ResponseType.THROTTLED,
      statusCode: '429',
      responseHeaders: { 'Retry-After': "'1'" },
      templates: { 'application/json': '{"error":"rate limit exceeded"}' },
    });

    this.routes = props.routes.map((route) => this.addRoute(route, props.context));

    Validations.of(this.api).acknowledge({
      id: 'AwsSolutions-APIG2',
      reason: 'Requests are validated in each handler with zod, because the spec fixes the exact error status and body per API area (for example 400 bad_request with a set message pattern), which API Gateway request validators cannot produce.',
    });
    Validations.of(this.api.deploymentStage).acknowledge({
      id: 'AwsSolutions-APIG6',
      reason: 'Execution logging needs the account-wide API Gateway CloudWatch role (AWS::ApiGateway::Account, one per account and region) that a per-stage stack should not own. JSON access logs, X-Ray tracing and the functions\' own structured logs cover per-request diagnosis.',
    });
  }

  private addRoute(route: RouteDef, context: FunctionContext): BuiltRoute {
    const fn = new AppFunction(this, route.id, {
      context,
      kind: 'http',
      handler: route.handler,
      grants: route.grants,
      timeoutSeconds: route.timeoutSeconds,
      memoryMb: route.memoryMb,
    });
    const isAdmin = route.auth === 'iam';
    const method = this.api.root.resourceForPath(route.path).addMethod(
      route.method,
      new apigateway.LambdaIntegration(fn.function, {
        proxy: true,
        allowTestInvoke: false,
        // Streaming routes answer through Lambda response streaming (Server-Sent Events reach the
        // client as they are produced); the function is wrapped with awslambda.streamifyResponse.
        ...(route.stream ? { responseTransferMode: apigateway.ResponseTransferMode.STREAM, timeout: Duration.minutes(5) } : {}),
      }),
      { authorizationType: isAdmin ? apigateway.AuthorizationType.IAM : apigateway.AuthorizationType.NONE },
    );
    if (isAdmin) {
      Validations.of(method).acknowledge({
        id: 'AwsSolutions-COG4',
        reason: 'The admin API is called by operators and the admin CLI with IAM (SigV4) credentials (DESIGN.md section 6); there are no Cognito users.',
      });
    } else {
      Validations.of(method).acknowledge({ id: 'AwsSolutions-APIG4', reason: IN_FUNCTION_AUTH_REASON });
      Validations.of(method).acknowledge({ id: 'AwsSolutions-COG4', reason: IN_FUNCTION_AUTH_REASON });
    }
    return { route, fn, method };
  }
}

/** JSON access log line: enough to trace a request across WAF, API Gateway and the function. */
function accessLogFormat(): apigateway.AccessLogFormat {
  const F = apigateway.AccessLogField;
  return apigateway.AccessLogFormat.custom(
    JSON.stringify({
      requestId: F.contextRequestId(),
      xrayTraceId: F.contextXrayTraceId(),
      ip: F.contextIdentitySourceIp(),
      userAgent: F.contextIdentityUserAgent(),
      caller: F.contextIdentityUserArn(),
      method: F.contextHttpMethod(),
      resourcePath: F.contextResourcePath(),
      path: F.contextPath(),
      status: F.contextStatus(),
      responseLength: F.contextResponseLength(),
      latencyMs: F.contextResponseLatency(),
      integrationLatencyMs: F.contextIntegrationLatency(),
      integrationStatus: F.contextIntegrationStatus(),
      errorType: F.contextErrorResponseType(),
      error: F.contextErrorMessage(),
      integrationError: F.contextIntegrationErrorMessage(),
      wafStatus: F.contextWafResponseCode(),
    }),
  );
}
