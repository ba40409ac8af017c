/**
 * The one front door (docs/adr/0013): a CloudFront distribution whose behaviors send each area's path
 * prefix to that area's REST API, so every path of the spec lives under one `{base_url}`. Nothing is
 * cached (every answer depends on the caller's key); CloudFront adds the origin header the area WAFs
 * require, so the APIs serve nothing that bypassed it.
 */
import { Annotations, CfnOutput, Duration, RemovalPolicy, SecretValue, Validations, type StackProps } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import type { Construct } from 'constructs';
import { CONSOLE_PREFIX } from '../functions/console/console-site-paths';
import { CONSOLE_OPENAPI_PATH, DOCS_CSP, DOCS_PATH, OPENAPI_PATH, docsFiles } from '../functions/openapi/docs-site';
import type { Area } from '../functions/kernel/route-vocabulary';
import type { AreaStack } from './area-stack';
import { CONSOLE_PATH, ConsoleClient } from './constructs/console-identity';
import { ConsoleSite } from './constructs/console-site';
import { acknowledgeBucketDeploymentHandler } from './constructs/bucket-deployment-findings';
import { DataUserStack, type DataStack } from './data-stack';
import { ORIGIN_VERIFY_HEADER, VIEWER_HOST_HEADER, VIEWER_IP_HEADER, viewerHeaderCode } from './front-door';
import type { StageConfig } from './stage-config';

export interface EdgeStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
  /** The area stacks served through the front door, with their path patterns. */
  readonly areas: readonly { readonly stack: AreaStack; readonly pattern: string }[];
  /** The upload service's internal balancer and the exact paths it serves, ahead of the area patterns. */
  readonly uploads?: { readonly loadBalancer: elbv2.IApplicationLoadBalancer; readonly paths: readonly string[] };
  /** The console's build, shipped to the console site's bucket when the console area is served. */
  readonly consoleBuildDir: string;
}

/** The console API's origin, named so the console site's function can send requests to it. */
export const CONSOLE_API_ORIGIN_ID = 'ConsoleApi';

export class EdgeStack extends DataUserStack {
  public readonly distribution: cloudfront.Distribution;
  public readonly patterns: ReadonlyMap<string, Area>;
  /** Overwrites the viewer-IP header on every request, whatever the client sent under that name. */
  public readonly viewerIp: cloudfront.Function;
  /** Paths sent to the upload service. */
  public readonly uploadPaths: readonly string[];
  /** The console's app client, whose URLs are this distribution's (docs/adr/0042). */
  public readonly consoleClient: ConsoleClient;
  /** The console's files, when the console area is served. */
  public readonly consoleSite?: ConsoleSite;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    const verify = SecretValue.secretsManager(props.data.originVerifySecretName).unsafeUnwrap();
    this.viewerIp = new cloudfront.Function(this, 'ViewerIp', {
      comment: `Sets ${VIEWER_IP_HEADER} (the area WAFs' per-IP rule) and ${VIEWER_HOST_HEADER} (absolute URLs)`,
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(viewerIpFunctionCode()),
    });
    const apiOrigin = (stack: AreaStack, originId?: string) =>
      new origins.RestApiOrigin(stack.http.api, {
        customHeaders: { [ORIGIN_VERIFY_HEADER]: verify },
        // The longest wait without a quota increase: a streamed chat turn sends chunks well within it;
        // a buffered one past it needs the origin-timeout quota raised (docs/adr/0013).
        readTimeout: Duration.seconds(60),
        ...(originId ? { originId } : {}),
      });
    const behaviorVia = (origin: cloudfront.IOrigin): cloudfront.BehaviorOptions => ({
      origin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      // Every viewer header (Authorization, X-Correlation-ID, X-Chat-Session-ID…) but Host, which must
      // name the execute-api domain; the viewer-request function adds X-Viewer-Ip.
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      compress: false,
      functionAssociations: [{ function: this.viewerIp, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
    });
    const behavior = (stack: AreaStack) => behaviorVia(apiOrigin(stack));
    // The upload service: no cache, every method, the whole body forwarded; CloudFront lists no request
    // body limit, so 20 MiB uploads reach the container (docs/adr/0016).
    const uploadBehaviors: Record<string, cloudfront.BehaviorOptions> = {};
    if (props.uploads) {
      const origin = origins.VpcOrigin.withApplicationLoadBalancer(props.uploads.loadBalancer, {
        protocolPolicy: cloudfront.OriginProtocolPolicy.HTTP_ONLY,
        readTimeout: Duration.seconds(60),
        vpcOriginName: `platform-${props.config.stage}-uploads`,
      });
      for (const path of props.uploads.paths) {
        uploadBehaviors[path] = {
          origin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER,
          compress: false,
          functionAssociations: [{ function: this.viewerIp, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        };
      }
    }
    this.uploadPaths = Object.keys(uploadBehaviors);
    const referenceBehaviors = this.apiReference(props);
    const [first] = props.areas;
    if (!first) throw new Error('the front door needs at least one area');
    this.patterns = new Map(props.areas.map((a) => [a.pattern, a.stack.area]));
    // The console area's paths are shared with the console's files (docs/adr/0047).
    const consoleArea = props.areas.find((a) => a.stack.area === 'console');
    if (consoleArea && consoleArea.pattern !== `${CONSOLE_PREFIX}/*`)
      throw new Error(`the console area must live under ${CONSOLE_PREFIX}/*, not ${consoleArea.pattern}`);
    this.consoleSite = consoleArea
      ? new ConsoleSite(this, 'ConsoleSite', {
          buildDir: props.consoleBuildDir,
          accessLogsBucket: props.data.accessLogsBucket,
          apiOrigin: apiOrigin(consoleArea.stack, CONSOLE_API_ORIGIN_ID),
          apiOriginId: CONSOLE_API_ORIGIN_ID,
          apiBehavior: behaviorVia,
          viewerHeaderCode: viewerHeaderCode(),
        })
      : undefined;
    const areaBehaviors = props.areas.flatMap((a) =>
      a === consoleArea && this.consoleSite ? Object.entries(this.consoleSite.behaviors) : [[a.pattern, behavior(a.stack)] as const],
    );
    this.distribution = new cloudfront.Distribution(this, 'FrontDoor', {
      comment: `platform-${props.config.stage}: one base URL for every area of the spec`,
      // Paths of no area reach the first area's API, which answers its documented 404.
      defaultBehavior: behavior(first.stack),
      // Exact upload paths first: CloudFront matches behaviors in this order.
      additionalBehaviors: { ...uploadBehaviors, ...referenceBehaviors, ...Object.fromEntries(areaBehaviors) },
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      // Standard logs (viewer address, edge result, time to first byte) beside the area APIs' own access
      // logs: what CloudFront refuses or fails on (malformed requests, origin timeouts) never reaches those.
      logBucket: props.data.accessLogsBucket,
      logFilePrefix: 'cloudfront/',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
    });
    if (this.consoleSite) {
      Annotations.of(this.distribution).acknowledgeWarning(
        '@aws-cdk/aws-cloudfront-origins:listBucketSecurityRisk',
        "The console site's function sends its bucket only /console/index.html and /console/assets/<name>, never a listing request.",
      );
    }
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The APIs serve every country; geo restriction is not a product rule.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR2',
      reason:
        'Each area API stage has its own regional AWS WAF web ACL (managed rules, per-IP rate rule, origin check); a CLOUDFRONT-scope ACL would have to live in us-east-1 (follow-up in docs/adr/0013).',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR4',
      reason:
        'The default CloudFront domain certificate is used until a custom domain is configured; viewers are held to HTTPS only, and a custom domain with its own certificate (TLS 1.2 minimum) is the documented next step.',
    });
    const baseUrl = `https://${this.distribution.distributionDomainName}`;
    new CfnOutput(this, 'BaseUrl', { value: baseUrl, description: 'The {base_url} of every area of the spec' });
    this.consoleClient = new ConsoleClient(this, 'Console', {
      config: props.config,
      userPool: props.data.consoleIdentity.userPool,
      consoleOrigin: baseUrl,
    });
    const identity = props.data.consoleIdentity.targets;
    new CfnOutput(this, 'ConsoleUrl', { value: `${baseUrl}${CONSOLE_PATH}`, description: 'Where builders sign in to the console' });
    new CfnOutput(this, 'ConsoleIssuerUrl', { value: identity.issuerUrl, description: "The console user pool's OpenID issuer" });
    new CfnOutput(this, 'ConsoleAuthBaseUrl', { value: identity.authBaseUrl, description: "The user pool's managed-login domain" });
    new CfnOutput(this, 'ConsoleClientId', { value: this.consoleClient.client.userPoolClientId, description: "The console's app client" });
    new CfnOutput(this, 'ConsoleClientSecretArn', {
      value: this.consoleClient.secret.secretArn,
      description: "The secret holding the console client's id and generated secret",
    });
  }

  /**
   * The API reference (`/docs`, `/api/v1/openapi.json`): the same files the local server serves
   * (functions/openapi/docs-site.ts), generated at synth into a private bucket that only this
   * distribution reads (origin access control), cached at the edge, with a same-origin CSP.
   */
  private apiReference(props: EdgeStackProps): Record<string, cloudfront.BehaviorOptions> {
    const bucket = new s3.Bucket(this, 'ApiReference', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      serverAccessLogsBucket: props.data.accessLogsBucket,
      serverAccessLogsPrefix: 'api-reference/',
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    const files = docsFiles('/');
    // One deployment per content type: S3 serves each object with the type it was written with.
    const byType = new Map<string, s3deploy.ISource[]>();
    for (const [path, file] of Object.entries(files)) {
      const list = byType.get(file.contentType) ?? [];
      list.push(s3deploy.Source.data(path.slice(1), file.body.toString()));
      byType.set(file.contentType, list);
    }
    let n = 0;
    for (const [contentType, sources] of byType) {
      new s3deploy.BucketDeployment(this, `ApiReferenceFiles${++n}`, { destinationBucket: bucket, sources, contentType, prune: false, memoryLimit: 256 });
    }
    acknowledgeBucketDeploymentHandler(bucket, 'the synthesized reference files');
    const headers = new cloudfront.ResponseHeadersPolicy(this, 'ApiReferenceHeaders', {
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: DOCS_CSP, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });
    const reference: cloudfront.BehaviorOptions = {
      origin: origins.S3BucketOrigin.withOriginAccessControl(bucket),
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: headers,
      compress: true,
    };
    return { [OPENAPI_PATH]: reference, [CONSOLE_OPENAPI_PATH]: reference, [DOCS_PATH]: reference, [`${DOCS_PATH}/*`]: reference };
  }
}

/** CloudFront Functions code (cloudfront-js-2.0). */
function viewerIpFunctionCode(): string {
  return ['function handler(event) {', ...viewerHeaderCode().map((line) => `  ${line}`), '  return event.request;', '}'].join('\n');
}
