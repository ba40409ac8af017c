/**
 * AWS WAF in front of an API stage or the upload service's load balancer: the outer guard of
 * docs/design.md §5. It blocks floods and known-bad traffic; the spec's exact per-key and per-IP limits are
 * enforced in the application, because WAF rate rules are coarse (5-minute windows, up to ~30 s
 * enforcement lag).
 */
import { ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct, type IDependable } from 'constructs';
import { renderErrorBody, type ErrorArea } from '../../functions/kernel/domain/error-bodies';
import { decimalAbove } from './decimal-regex';

/** The regional resource a web ACL is associated with. */
export interface FirewallTarget {
  readonly resourceArn: string;
  /** Names the WAF log group (`aws-waf-logs-<name>`). */
  readonly name: string;
  /** Must exist before the association (a stage ARN is built from names, so nothing else orders them). */
  readonly dependency: IDependable;
  /**
   * Nothing but the front door can reach the resource (an internal load balancer behind a CloudFront
   * VPC origin), so the front door's client address header is trustworthy without an origin header.
   * @default false
   */
  readonly onlyFrontDoorReaches?: boolean;
}

/** A REST API stage as a firewall target. */
export function stageTarget(stage: apigateway.Stage): FirewallTarget {
  return { resourceArn: stage.stageArn, name: stage.restApi.restApiName, dependency: stage };
}

/** An internal Application Load Balancer that only a CloudFront VPC origin reaches, as a firewall target. */
export function privateLoadBalancerTarget(loadBalancer: elbv2.ApplicationLoadBalancer, name: string): FirewallTarget {
  if ((loadBalancer.node.defaultChild as elbv2.CfnLoadBalancer).scheme !== 'internal') {
    throw new Error(`${name}: only an internal load balancer is reached by the front door alone`);
  }
  return { resourceArn: loadBalancer.loadBalancerArn, name, dependency: loadBalancer, onlyFrontDoorReaches: true };
}

export interface ApiFirewallProps {
  /** What the web ACL protects. */
  readonly target: FirewallTarget;
  /** Requests one client IP may send per 5 minutes before WAF answers 429. */
  readonly requestsPerIpPer5Min: number;
  readonly logRetention: logs.RetentionDays;
  readonly retainLogs: boolean;
  /** The area whose error shape WAF's own answers take (functions/kernel/domain/error-bodies.ts). */
  readonly area: ErrorArea;
  /**
   * Requests must carry this header with this value (CloudFront's origin custom header): the stage
   * then serves only traffic that came through the front door. Absent: the stage is reached directly.
   */
  readonly originVerify?: { readonly headerName: string; readonly value: string };
  /**
   * The header holding the client's address, for a stage behind the front door: there WAF sees an
   * edge server as the peer. It must be a header the front door overwrites (and `originVerify` must
   * be set, or the target be reachable only from the front door, so nothing that bypassed the front
   * door reaches the rate rule). Absent: the peer address.
   */
  readonly clientIpHeader?: string;
  /**
   * Requests declaring a `Content-Length` over `bytes` are answered 413 `message` in the area's shape
   * before they reach a function (the routes' own limit; functions/routes.ts `maxBodyBytes`). A body
   * sent chunked, without the header, still gets the handler's 413, or the gateway's over 10 MB.
   */
  readonly maxBody?: { readonly bytes: number; readonly message: string };
}

/**
 * Core Rule Set rules that inspect request bodies. Chat messages, imported transcripts and release
 * notes legitimately contain code, HTML, URLs and bodies over 8 KB, and file uploads are up to 20 MiB
 * of binary multipart (SizeRestrictions_BODY blocks anything over 8 KB), so these rules only count;
 * the handlers validate and size-check bodies themselves.
 */
const CRS_BODY_RULES_COUNT_ONLY = ['SizeRestrictions_BODY', 'CrossSiteScripting_BODY', 'GenericLFI_BODY', 'GenericRFI_BODY', 'EC2MetaDataSSRF_BODY'];

export class ApiFirewall extends Construct {
  public readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    if (props.clientIpHeader && !props.originVerify && !props.target.onlyFrontDoorReaches) {
      throw new Error('a client address header is only trustworthy behind the front door: set originVerify too');
    }

    const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    const managed = (priority: number, name: string, countOnly: readonly string[] = []): wafv2.CfnWebACL.RuleProperty => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          ruleActionOverrides: countOnly.length ? countOnly.map((rule) => ({ name: rule, actionToUse: { count: {} } })) : undefined,
        },
      },
      visibilityConfig: visibility(name),
    });

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('platform-api'),
      customResponseBodies: {
        rateLimited: { contentType: 'APPLICATION_JSON', content: JSON.stringify(renderErrorBody(props.area, 'rate_limited', 'Rate limit exceeded')) },
        notThroughFrontDoor: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify(renderErrorBody(props.area, 'forbidden', 'Use the API through its public base URL')),
        },
        ...(props.maxBody
          ? {
              bodyTooLarge: {
                contentType: 'APPLICATION_JSON',
                content: JSON.stringify(renderErrorBody(props.area, 'payload_too_large', props.maxBody.message)),
              },
            }
          : {}),
      },
      rules: [
        ...(props.originVerify ? [originVerifyRule(props.originVerify, visibility('OriginVerify'))] : []),
        {
          // Before the managed groups, so a flood is dropped before they spend capacity on it.
          name: 'RateLimitPerIp',
          priority: 1,
          action: {
            block: {
              customResponse: {
                responseCode: 429,
                customResponseBodyKey: 'rateLimited',
                responseHeaders: [{ name: 'Retry-After', value: '60' }],
              },
            },
          },
          statement: {
            rateBasedStatement: {
              aggregateKeyType: props.clientIpHeader ? 'FORWARDED_IP' : 'IP',
              // MATCH: a request whose header holds no valid address is blocked, never left uncounted.
              ...(props.clientIpHeader ? { forwardedIpConfig: { headerName: props.clientIpHeader, fallbackBehavior: 'MATCH' } } : {}),
              evaluationWindowSec: 300,
              limit: props.requestsPerIpPer5Min,
            },
          },
          visibilityConfig: visibility('RateLimitPerIp'),
        },
        ...(props.maxBody ? [bodyTooLargeRule(props.maxBody.bytes, visibility('BodyTooLarge'))] : []),
        managed(3, 'AWSManagedRulesAmazonIpReputationList'),
        managed(4, 'AWSManagedRulesKnownBadInputsRuleSet'),
        managed(5, 'AWSManagedRulesCommonRuleSet', CRS_BODY_RULES_COUNT_ONLY),
      ],
    });

    const association = new wafv2.CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.target.resourceArn,
      webAclArn: this.webAcl.attrArn,
    });
    association.node.addDependency(props.target.dependency);

    // WAF requires the `aws-waf-logs-` prefix for a log group destination.
    const wafLogs = new logs.LogGroup(this, 'Logs', {
      logGroupName: `aws-waf-logs-${props.target.name}`,
      retention: props.logRetention,
      removalPolicy: props.retainLogs ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    new wafv2.CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      // The log group ARN without the `:*` suffix of its Arn attribute, which WAF rejects.
      logDestinationConfigs: [
        Stack.of(this).formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: wafLogs.logGroupName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
      // Bearer keys must never reach a log (docs/design.md §4).
      redactedFields: [{ singleHeader: { Name: 'authorization' } }],
    });
  }
}

/** Answers 413 (the `bodyTooLarge` body) to a request whose Content-Length is over `bytes`. */
function bodyTooLargeRule(bytes: number, visibilityConfig: wafv2.CfnWebACL.VisibilityConfigProperty): wafv2.CfnWebACL.RuleProperty {
  return {
    name: 'BodyTooLarge',
    priority: 2,
    action: { block: { customResponse: { responseCode: 413, customResponseBodyKey: 'bodyTooLarge' } } },
    statement: {
      regexMatchStatement: {
        fieldToMatch: { singleHeader: { Name: 'content-length' } },
        regexString: decimalAbove(bytes),
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    },
    visibilityConfig,
  };
}

/** Blocks (403 in the area's shape) every request without the front door's origin header and value. */
function originVerifyRule(
  verify: { readonly headerName: string; readonly value: string },
  visibilityConfig: wafv2.CfnWebACL.VisibilityConfigProperty,
): wafv2.CfnWebACL.RuleProperty {
  return {
    name: 'OnlyThroughFrontDoor',
    priority: 0,
    action: { block: { customResponse: { responseCode: 403, customResponseBodyKey: 'notThroughFrontDoor' } } },
    statement: {
      notStatement: {
        statement: {
          byteMatchStatement: {
            fieldToMatch: { singleHeader: { Name: verify.headerName.toLowerCase() } },
            positionalConstraint: 'EXACTLY',
            searchString: verify.value,
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        },
      },
    },
    visibilityConfig,
  };
}
