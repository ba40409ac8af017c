import { describe, expect, it } from 'vitest';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { ENV } from '../../functions/kernel/env';
import { CONSOLE_OPENAPI_PATH, DOCS_PATH, OPENAPI_PATH } from '../../functions/openapi/docs-site';
import { ROUTES } from '../../functions/routes';
import type { Area, RouteDef } from '../../functions/kernel/route-vocabulary';
import { areaPrefix, frontDoorPatterns, VIEWER_IP_HEADER } from '../../lib/front-door';
import { importedId, refId, resourcePaths, resourcesOfType, synthPlatform } from './platform-fixture';

const platform = synthPlatform('prod');
const { areas, templates, edge, data, dataTemplate } = platform;
const templateOf = (area: Area) => templates.get(areas.get(area)!.stackName)!;

describe('resource budget', () => {
  it.each([...templates.entries()])('%s stays under 400 of CloudFormation’s 500 resources', (_, template) => {
    const count = Object.keys(template.toJSON().Resources).length;
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(400);
  });

  it('gives every area of the route table a stack of its own', () => {
    expect([...areas.keys()].sort()).toEqual([...new Set(ROUTES.map((r) => r.area))].sort());
  });
});

describe('one front door', () => {
  const distribution = Object.values(resourcesOfType(templates.get(edge.stackName)!, 'AWS::CloudFront::Distribution'))[0]!.Properties!.DistributionConfig;
  const origins = distribution.Origins as {
    Id: string;
    DomainName: unknown;
    OriginPath?: unknown;
    OriginCustomHeaders?: { HeaderName: string; HeaderValue: string }[];
  }[];
  type Behavior = {
    PathPattern: string;
    TargetOriginId: string;
    AllowedMethods: string[];
    CachePolicyId: unknown;
    OriginRequestPolicyId: unknown;
    ViewerProtocolPolicy: string;
    FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
  };
  // The API reference's behaviors (a cached bucket) are checked on their own below, the console's files in console-site.test.ts.
  const referencePaths = new Set<string>([OPENAPI_PATH, CONSOLE_OPENAPI_PATH, DOCS_PATH, `${DOCS_PATH}/*`]);
  const consoleFilePaths = new Set(['/console/assets/*', '/console', '/console/*']);
  const referenceBehaviors = (distribution.CacheBehaviors as Behavior[]).filter((b) => referencePaths.has(b.PathPattern));
  const behaviors = (distribution.CacheBehaviors as Behavior[]).filter((b) => !referencePaths.has(b.PathPattern) && !consoleFilePaths.has(b.PathPattern));
  /** Every behavior, the default one (paths of no area) included. */
  const allBehaviors = [...behaviors, distribution.DefaultCacheBehavior as Behavior];
  const uploadPaths = new Set<string>(ROUTES.filter((r) => r.origin === 'uploadService').map((r) => r.path));
  const matches = (pattern: string, path: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(path);
  /** A concrete request path of a route: `{x}` filled in. */
  const concrete = (route: RouteDef) => route.path.replace(/\{\w+\}/g, '0f8fad5b-d9cb-469f-a165-70867728950e');

  /** The behavior CloudFront picks for a path: the first in order whose pattern matches. */
  const behaviorFor = (path: string) => behaviors.find((b) => matches(b.PathPattern, path));

  it.each(ROUTES.filter((r) => r.area !== 'admin' && (r.origin ?? 'api') === 'api').map((r) => [r.id, r] as const))(
    '%s is reached under the one base URL, at its own area API',
    (_, route) => {
      const behavior = behaviorFor(concrete(route))!;
      expect(behavior, route.path).toBeDefined();
      expect(behavior.AllowedMethods).toContain(route.method);
      expect(behavior.ViewerProtocolPolicy).toBe('https-only');
      const origin = origins.find((o) => o.Id === behavior.TargetOriginId)!;
      // The origin is the execute-api domain of the area's REST API, under its stage.
      const area = templateOf(route.area);
      const apiId = Object.keys(resourcesOfType(area, 'AWS::ApiGateway::RestApi'))[0]!;
      expect(JSON.stringify(origin.DomainName)).toContain(apiId);
      // (the path is the stage, cut from the same API's URL)
      expect(JSON.stringify(origin.OriginPath)).toContain(apiId);
      // …and that API has this route's method at this path.
      const paths = resourcePaths(area);
      const methods = Object.values(resourcesOfType(area, 'AWS::ApiGateway::Method')).map((m) => m.Properties!);
      expect(methods.some((m) => m.HttpMethod === route.method && paths.get(refId(m.ResourceId)!) === route.path)).toBe(true);
    },
  );

  it('caches nothing, forwards every viewer header but Host, and proves each request came through it', () => {
    for (const b of allBehaviors.filter((x) => !uploadPaths.has(x.PathPattern))) {
      expect(b.ViewerProtocolPolicy).toBe('https-only');
      expect(b.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // Managed-CachingDisabled
      expect(b.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac'); // AllViewerExceptHostHeader
    }
    // The API origins carry the origin check; the upload service's VPC origin is unreachable from outside the VPC.
    for (const o of origins.filter((x) => !('VpcOriginConfig' in x) && !('S3OriginConfig' in x)))
      expect(o.OriginCustomHeaders?.map((h) => h.HeaderName)).toEqual(['X-Origin-Verify']);
    for (const [area, stack] of areas) {
      const acl = Object.values(resourcesOfType(templates.get(stack.stackName)!, 'AWS::WAFv2::WebACL'))[0]!.Properties!;
      const rule = (acl.Rules as { Name: string; Statement: any; Action: any }[]).find((r) => r.Name === 'OnlyThroughFrontDoor');
      if (area === 'admin') {
        expect(rule).toBeUndefined();
        continue;
      }
      const match = rule!.Statement.NotStatement.Statement.ByteMatchStatement;
      expect(match.FieldToMatch).toEqual({ SingleHeader: { Name: 'x-origin-verify' } });
      expect(match.SearchString).toBe(origins[0]!.OriginCustomHeaders![0]!.HeaderValue);
      expect(match.SearchString).toMatch(/^\{\{resolve:secretsmanager:platform-prod\/origin-verify:SecretString:::\}\}$/);
    }
  });

  it('outputs the one base URL, and the admin API URL beside it', () => {
    const distributionId = Object.keys(resourcesOfType(templates.get(edge.stackName)!, 'AWS::CloudFront::Distribution'))[0]!;
    const outputs = templates.get(edge.stackName)!.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.BaseUrl!.Value).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] });
    const admin = templateOf('admin');
    const adminApiId = Object.keys(resourcesOfType(admin, 'AWS::ApiGateway::RestApi'))[0]!;
    expect(JSON.stringify((admin.toJSON().Outputs as Record<string, { Value: unknown }>).ApiUrl!.Value)).toContain(`{"Ref":"${adminApiId}"}`);
  });

  it('writes its standard logs, without cookies, to the access-log bucket of the data stack', () => {
    expect(distribution.Logging.Prefix).toBe('cloudfront/');
    expect(distribution.Logging.IncludeCookies ?? false).toBe(false);
    const bucketId = data.getLogicalId(data.accessLogsBucket.node.defaultChild as CfnBucket);
    expect(importedId(distribution.Logging.Bucket, dataTemplate)).toBe(bucketId);
  });

  it('counts requests per viewer by an address CloudFront writes, never one the client wrote', () => {
    // The console site's function sets the same headers (console-site.test.ts).
    const functions = Object.entries(resourcesOfType(templates.get(edge.stackName)!, 'AWS::CloudFront::Function')).filter(
      ([, f]) => !String(f.Properties!.FunctionCode).startsWith("import cf from 'cloudfront';"),
    );
    expect(functions).toHaveLength(1);
    const [functionId, fn] = functions[0]!;
    for (const b of allBehaviors) {
      expect(b.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } }]);
    }
    // The shipped code, run on a request that forges both the header and X-Forwarded-For.
    const handler = new Function(`${fn.Properties!.FunctionCode as string}\nreturn handler;`)() as (event: unknown) => {
      headers: Record<string, { value: string }>;
    };
    const forged = {
      'x-viewer-ip': { value: '192.0.2.1' },
      'x-forwarded-for': { value: '192.0.2.1' },
      'x-viewer-host': { value: 'evil.example' },
      host: { value: 'd111.cloudfront.net' },
    };
    const out = handler({ viewer: { ip: '203.0.113.7' }, request: { uri: '/api/v1/org/apps', headers: forged } });
    expect(out.headers[VIEWER_IP_HEADER.toLowerCase()]).toEqual({ value: '203.0.113.7' });
    // The host the viewer asked for, over anything the client wrote (ACP discovery builds absolute URLs from it).
    expect(out.headers['x-viewer-host']).toEqual({ value: 'd111.cloudfront.net' });
    expect(out.headers['x-forwarded-for']).toEqual({ value: '192.0.2.1' });
    // …and every front-door area's per-IP rate rule counts by that header, failing closed.
    for (const [area, stack] of areas) {
      const acl = Object.values(resourcesOfType(templates.get(stack.stackName)!, 'AWS::WAFv2::WebACL'))[0]!.Properties!;
      const rate = (acl.Rules as { Name: string; Statement: any }[]).find((r) => r.Name === 'RateLimitPerIp')!.Statement.RateBasedStatement;
      if (area === 'admin') {
        expect(rate.AggregateKeyType).toBe('IP');
        expect(rate.ForwardedIPConfig).toBeUndefined();
      } else {
        expect(rate.AggregateKeyType, area).toBe('FORWARDED_IP');
        expect(rate.ForwardedIPConfig).toEqual({ HeaderName: VIEWER_IP_HEADER, FallbackBehavior: 'MATCH' });
      }
    }
  });

  it('serves the API reference from a private bucket through origin access control, cached, GET/HEAD only, with a same-origin CSP', () => {
    expect(referenceBehaviors.map((b) => b.PathPattern).sort()).toEqual([...referencePaths].sort());
    const template = templates.get(edge.stackName)!;
    // One for the reference's bucket, one for the console's.
    const oac = Object.keys(resourcesOfType(template, 'AWS::CloudFront::OriginAccessControl'));
    expect(oac).toHaveLength(2);
    const policies = Object.values(resourcesOfType(template, 'AWS::CloudFront::ResponseHeadersPolicy'));
    expect(JSON.stringify(policies)).toContain("script-src 'self'");
    for (const b of referenceBehaviors as (Behavior & { AllowedMethods?: string[] })[]) {
      expect(b.ViewerProtocolPolicy).toBe('https-only');
      expect(b.CachePolicyId).toBe('658327ea-f89d-4fab-a63d-7e88639e58f6'); // Managed-CachingOptimized
      expect(b.AllowedMethods).toEqual(['GET', 'HEAD']);
    }
    const bucket = Object.values(resourcesOfType(template, 'AWS::S3::Bucket'))[0]!.Properties!;
    expect(bucket.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
  });

  it('derives the path patterns of each area from the route table and refuses overlapping areas', () => {
    expect(
      behaviors
        .map((b) => b.PathPattern)
        .filter((p) => !uploadPaths.has(p))
        .sort(),
    ).toEqual([
      '/acp/*',
      '/api/v1/chat/*',
      '/api/v1/conversations',
      '/api/v1/conversations/*',
      '/api/v1/models',
      '/api/v1/models/*',
      '/api/v1/org/*',
      '/api/v1/release-notes/*',
      '/api/v1/responses',
      '/api/v1/responses/*',
      '/console/auth/*',
      '/console/v1/*',
      '/release-notes',
    ]);
    // The console area lives under /console/*, where the console's files are served beside its API.
    expect(edge.patterns.get('/console/*')).toBe('console');
    const route = (area: Area, path: string): RouteDef => ({ ...ROUTES[0]!, area, path });
    expect(areaPrefix([route('acp', '/acp/{appId}/products'), route('acp', '/acp/{appId}/checkout_sessions')])).toBe('/acp');
    // An area whose routes share only a prefix another area lives under is split by the next segment.
    expect(
      frontDoorPatterns(
        new Map([
          ['export', [route('export', '/api/v1/org/apps'), route('export', '/api/v1/org/usage')]],
          ['chat', [route('chat', '/api/v1/chat/completions'), route('chat', '/api/v1/chat/files'), route('chat', '/api/v1/responses')]],
        ]),
      ),
    ).toEqual(
      new Map([
        ['export', ['/api/v1/org/*']],
        ['chat', ['/api/v1/chat/*', '/api/v1/responses']],
      ]),
    );
    // A path that ends where its group is split (a collection beside its items) takes its exact path.
    expect(
      frontDoorPatterns(
        new Map([
          ['export', [route('export', '/api/v1/org/apps')]],
          ['chat', [route('chat', '/api/v1/models'), route('chat', '/api/v1/models/{model}')]],
        ]),
      ),
    ).toEqual(
      new Map([
        ['export', ['/api/v1/org/*']],
        ['chat', ['/api/v1/models', '/api/v1/models/*']],
      ]),
    );
    expect(() =>
      frontDoorPatterns(
        new Map([
          ['export', [route('export', '/api/v1/x/{id}/y')]],
          ['chat', [route('chat', '/api/v1/x/{id}')]],
        ]),
      ),
    ).toThrow(/overlaps/);
  });

  it('trusts the viewer address only in functions behind the front door', () => {
    for (const [area, stack] of areas) {
      for (const fn of Object.values(resourcesOfType(templates.get(stack.stackName)!, 'AWS::Lambda::Function'))) {
        expect(fn.Properties!.Environment.Variables[ENV.trustViewerAddress], `${area} ${fn.Properties!.Description}`).toBe(area === 'admin' ? 'false' : 'true');
      }
    }
  });
});
