/**
 * The web console on the front door: its files from a private bucket, its page paths answered with
 * index.html by the same rule as the local server (the shipped CloudFront Function, run here against
 * the shared table of paths), its API's paths left to the console API, and its security headers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_CSP, consoleTargetOf } from '../../functions/console/console-site-paths';
import { CONSOLE_BUILD_DIR } from '../../functions/local/console-build';
import { consoleFileFor } from '../../functions/local/console-site';
import { CONSOLE_OPENAPI_PATH } from '../../functions/openapi/docs-site';
import { CONSOLE_API_ORIGIN_ID } from '../../lib/edge-stack';
import { CONSOLE_PATHS_TABLE } from '../support/console-paths-table';
import { refId, resourcesOfType, synthPlatform } from './platform-fixture';

const platform = synthPlatform('prod');
const template = platform.templates.get(platform.edge.stackName)!;
const distribution = Object.values(resourcesOfType(template, 'AWS::CloudFront::Distribution'))[0]!.Properties!.DistributionConfig;
type Behavior = Record<string, any> & { PathPattern: string; TargetOriginId: string };
const behaviors = distribution.CacheBehaviors as Behavior[];
const byPattern = (pattern: string) => behaviors.find((b) => b.PathPattern === pattern)!;
const origins = distribution.Origins as { Id: string; DomainName: unknown; OriginAccessControlId?: unknown; OriginCustomHeaders?: unknown[] }[];
const functions = Object.entries(resourcesOfType(template, 'AWS::CloudFront::Function'));
const [consoleFunctionId, consoleFunction] = functions.find(([, f]) => String(f.Properties!.FunctionCode).startsWith("import cf from 'cloudfront';"))!;
const siteBucketId = Object.keys(resourcesOfType(template, 'AWS::S3::Bucket')).find((id) => id.startsWith('ConsoleSiteFiles'))!;

interface CfRequest {
  method: string;
  uri: string;
  querystring: Record<string, { value: string }>;
  headers: Record<string, { value: string }>;
}
/** The shipped function's code, run with a stand-in for its `cloudfront` module; returns the request and the origin it chose. */
function runFunction(method: string, uri: string, headers: CfRequest['headers'] = {}) {
  const code = String(consoleFunction.Properties!.FunctionCode).replace("import cf from 'cloudfront';", '');
  let selected: string | undefined;
  const cf = { selectRequestOriginById: (id: string) => (selected = id) };
  const handler = new Function('cf', `${code}\nreturn handler;`)(cf) as (event: unknown) => CfRequest;
  const request = { method, uri, querystring: { tab: { value: 'keys' } }, headers: { host: { value: 'd111.cloudfront.net' }, ...headers } };
  const out = handler({ viewer: { ip: '203.0.113.7' }, request });
  return { request: out, origin: selected };
}

describe('which paths under /console are the console’s files (one table, both servers)', () => {
  it.each(CONSOLE_PATHS_TABLE.map(([path, target]) => [path, String(target), target] as const))('%s: %s', (path, _, target) => {
    // The local server's rule…
    expect(consoleTargetOf(path)).toBe(target);
    expect(consoleFileFor(path)?.file).toBe(
      target === 'page' ? join(CONSOLE_BUILD_DIR, 'index.html') : target === 'asset' ? join(CONSOLE_BUILD_DIR, 'assets', path.split('/').pop()!) : undefined,
    );
    // …and the front door's: a GET or HEAD of a file goes to the bucket without its query, the page as index.html.
    for (const method of ['GET', 'HEAD']) {
      const { request, origin } = runFunction(method, path);
      if (target === undefined) {
        expect(origin).toBe(CONSOLE_API_ORIGIN_ID);
        expect(request.uri).toBe(path);
        expect(request.querystring).toEqual({ tab: { value: 'keys' } });
      } else {
        expect(origin).toBeUndefined();
        expect(request.uri).toBe(target === 'page' ? '/console/index.html' : path);
        expect(request.querystring).toEqual({});
      }
    }
    // Every other method is the API's, as locally.
    expect(runFunction('POST', path).origin).toBe(CONSOLE_API_ORIGIN_ID);
  });

  it('sets the viewer headers from what CloudFront saw, over what the client wrote', () => {
    const { request } = runFunction('GET', '/console/v1/orgs', { 'x-viewer-ip': { value: '192.0.2.1' }, 'x-viewer-host': { value: 'evil.example' } });
    expect(request.headers['x-viewer-ip']).toEqual({ value: '203.0.113.7' });
    expect(request.headers['x-viewer-host']).toEqual({ value: 'd111.cloudfront.net' });
  });

  it('selects an origin the distribution has: the console API’s, with the origin check', () => {
    const api = origins.find((o) => o.Id === CONSOLE_API_ORIGIN_ID)!;
    expect(api).toBeDefined();
    const consoleApiId = Object.keys(resourcesOfType(platform.templates.get(platform.areas.get('console')!.stackName)!, 'AWS::ApiGateway::RestApi'))[0]!;
    expect(JSON.stringify(api.DomainName)).toContain(consoleApiId);
    expect(api.OriginCustomHeaders).toHaveLength(1);
  });
});

describe('the console’s behaviors on the front door', () => {
  const order = behaviors.map((b) => b.PathPattern);
  const bucketOrigin = origins.find((o) => JSON.stringify(o.DomainName).includes(siteBucketId))!;

  it('matches the API’s paths and the OpenAPI document before the files, and the assets before the pages', () => {
    for (const first of ['/console/auth/*', '/console/v1/*', CONSOLE_OPENAPI_PATH, '/console/assets/*'])
      expect(order.indexOf(first), first).toBeLessThan(order.indexOf('/console/*'));
    expect(order.indexOf('/console')).toBeGreaterThan(-1);
    for (const pattern of ['/console/auth/*', '/console/v1/*']) {
      const b = byPattern(pattern);
      expect(b.TargetOriginId).toBe(CONSOLE_API_ORIGIN_ID);
      expect(b.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // Managed-CachingDisabled
      expect(b.ResponseHeadersPolicyId).toBeUndefined();
    }
  });

  it('serves the files from the private bucket through origin access control, the page never cached, the assets as long as they say', () => {
    expect(bucketOrigin.OriginAccessControlId).toBeDefined();
    for (const pattern of ['/console', '/console/*', '/console/assets/*']) {
      const b = byPattern(pattern);
      expect(b.TargetOriginId, pattern).toBe(bucketOrigin.Id);
      expect(b.ViewerProtocolPolicy).toBe('https-only');
      expect(b.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac'); // AllViewerExceptHostHeader, for what goes on to the API
      expect(b.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [consoleFunctionId, 'FunctionARN'] } }]);
      expect(refId(b.ResponseHeadersPolicyId)).toMatch(/^ConsoleSiteHeaders/);
    }
    expect(byPattern('/console/*').CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
    const assetsCache = resourcesOfType(template, 'AWS::CloudFront::CachePolicy')[refId(byPattern('/console/assets/*').CachePolicyId)!]!;
    const config = assetsCache.Properties!.CachePolicyConfig;
    expect([config.MinTTL, config.DefaultTTL, config.MaxTTL]).toEqual([0, 0, 365 * 24 * 3600]);
    const bucket = resourcesOfType(template, 'AWS::S3::Bucket')[siteBucketId]!.Properties!;
    expect(bucket.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
  });

  it('adds the console’s CSP and security headers to every file', () => {
    const policy = resourcesOfType(template, 'AWS::CloudFront::ResponseHeadersPolicy')[refId(byPattern('/console/*').ResponseHeadersPolicyId)!]!;
    const headers = policy.Properties!.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(headers.ContentSecurityPolicy).toEqual({ ContentSecurityPolicy: CONSOLE_CSP, Override: true });
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(headers.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(headers.StrictTransportSecurity).toEqual({ AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Preload: true, Override: true });
    expect(headers.ContentTypeOptions).toEqual({ Override: true });
    expect(headers.ReferrerPolicy).toEqual({ ReferrerPolicy: 'no-referrer', Override: true });
  });
});

describe('the console’s files in the bucket', () => {
  const deployments = Object.entries(resourcesOfType(template, 'Custom::CDKBucketDeployment')).filter(([id]) => id.startsWith('ConsoleSite'));
  const assembly = platform.app.synth();
  /** The files a deployment ships, read from the staged asset it names. */
  const staged = (props: Record<string, any>) => {
    const key = String(props.SourceObjectKeys[0]);
    const dir = join(assembly.directory, `asset.${key.replace(/\.zip$/, '')}`);
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
  };

  it('ships every asset of the build with its type and a year-long immutable cache, and keeps older ones', () => {
    const assets = deployments.filter(([id]) => id.startsWith('ConsoleSiteAssets')).map(([, d]) => d.Properties!);
    const built = readdirSync(join(CONSOLE_BUILD_DIR, 'assets')).sort();
    expect(assets.flatMap(staged).sort()).toEqual(built);
    for (const props of assets) {
      expect(props.DestinationBucketKeyPrefix).toBe('console/assets/');
      expect(props.SystemMetadata['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(
        staged(props).every(
          (f) =>
            ({ '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' })[f.slice(f.lastIndexOf('.'))] ===
            props.SystemMetadata['content-type'],
        ),
      ).toBe(true);
      expect(props.Prune).toBe(false);
    }
  });

  it('ships index.html as the page, revalidated on every load, after the assets it names', () => {
    const [pageId, page] = deployments.find(([id]) => id.startsWith('ConsoleSitePage'))!;
    expect(staged(page.Properties!)).toEqual(['console/index.html']);
    const dir = join(assembly.directory, `asset.${String(page.Properties!.SourceObjectKeys[0]).replace(/\.zip$/, '')}`);
    expect(readFileSync(join(dir, 'console/index.html'), 'utf8')).toBe(readFileSync(join(CONSOLE_BUILD_DIR, 'index.html'), 'utf8'));
    expect(page.Properties!.SystemMetadata).toEqual({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    const after = [template.toJSON().Resources[pageId].DependsOn ?? []].flat();
    for (const [id] of deployments.filter(([i]) => i.startsWith('ConsoleSiteAssets'))) expect(after, pageId).toContain(id);
  });
});
