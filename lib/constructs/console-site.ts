/**
 * The web console on the front door (docs/adr/0047): the console build in a private bucket that only the
 * distribution reads (origin access control), a viewer-request CloudFront Function that answers every
 * page path with index.html by the rule the local server uses (functions/console/console-site-paths.ts)
 * and hands everything else under /console to the console API, and the console's security headers.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import {
  CONSOLE_API_PATHS,
  CONSOLE_API_PREFIXES,
  CONSOLE_ASSET_CACHE_CONTROL,
  CONSOLE_ASSET_NAME,
  CONSOLE_ASSETS_PREFIX,
  CONSOLE_CONTENT_TYPES,
  CONSOLE_CSP,
  CONSOLE_INDEX_PATH,
  CONSOLE_PAGE_CACHE_CONTROL,
  CONSOLE_PAGE_PATH,
  CONSOLE_PREFIX,
} from '../../functions/console/console-site-paths';
import { acknowledgeBucketDeploymentHandler } from './bucket-deployment-findings';

export interface ConsoleSiteProps {
  /** The console's build (`index.html`, `assets/`), made before synth (bin/app.ts). */
  readonly buildDir: string;
  readonly accessLogsBucket: s3.IBucket;
  /** The console API's origin: its own paths, and every request under /console that is not a file. */
  readonly apiOrigin: cloudfront.IOrigin;
  /** The id the API origin was given, which the function selects it by. */
  readonly apiOriginId: string;
  /** How the console API's own paths reach it (its viewer-request function included). */
  readonly apiBehavior: (origin: cloudfront.IOrigin) => cloudfront.BehaviorOptions;
  /** Lines of cloudfront-js-2.0 that set the front door's viewer headers on `event.request`. */
  readonly viewerHeaderCode: readonly string[];
}

export class ConsoleSite extends Construct {
  public readonly bucket: s3.Bucket;
  public readonly function: cloudfront.Function;
  public readonly headers: cloudfront.ResponseHeadersPolicy;
  /** Behaviors in the order CloudFront must match them: the API's paths, the assets, then every other path. */
  public readonly behaviors: Record<string, cloudfront.BehaviorOptions>;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);
    if (!existsSync(join(props.buildDir, 'index.html')))
      throw new Error(
        `no console build in ${props.buildDir}: build it before synth (ensureConsoleBuilt() of functions/local/console-build.ts, as bin/app.ts does)`,
      );
    const index = readFileSync(join(props.buildDir, 'index.html'), 'utf8');
    this.bucket = new s3.Bucket(this, 'Files', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      serverAccessLogsBucket: props.accessLogsBucket,
      serverAccessLogsPrefix: 'console-site/',
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    // Old assets are kept (no prune): a tab opened before a deploy still loads the page chunks it names.
    const key = (path: string) => path.slice(1);
    const assetsDir = join(props.buildDir, 'assets');
    const assetDeployments = [...new Set(readdirSync(assetsDir).map(extname))].sort().map((ext) => {
      const contentType = CONSOLE_CONTENT_TYPES[ext];
      if (!contentType) throw new Error(`the console build holds a ${ext || 'nameless'} file with no content type in CONSOLE_CONTENT_TYPES`);
      return new s3deploy.BucketDeployment(this, `Assets${ext.slice(1).toUpperCase()}`, {
        destinationBucket: this.bucket,
        destinationKeyPrefix: key(CONSOLE_ASSETS_PREFIX),
        sources: [s3deploy.Source.asset(assetsDir, { exclude: ['*', `!*${ext}`] })],
        contentType,
        cacheControl: [s3deploy.CacheControl.fromString(CONSOLE_ASSET_CACHE_CONTROL)],
        prune: false,
        memoryLimit: 256,
      });
    });
    const page = new s3deploy.BucketDeployment(this, 'Page', {
      destinationBucket: this.bucket,
      sources: [s3deploy.Source.data(key(CONSOLE_INDEX_PATH), index)],
      contentType: 'text/html; charset=utf-8',
      cacheControl: [s3deploy.CacheControl.fromString(CONSOLE_PAGE_CACHE_CONTROL)],
      prune: false,
      memoryLimit: 256,
    });
    // The page goes last, so it never names an asset the bucket does not hold yet.
    for (const d of assetDeployments) page.node.addDependency(d);
    acknowledgeBucketDeploymentHandler(this.bucket, 'the console build');

    this.function = new cloudfront.Function(this, 'Paths', {
      comment: 'Answers console page paths with index.html; sends the rest under /console to the console API',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(consoleSiteFunctionCode(props.apiOriginId, props.viewerHeaderCode)),
    });
    this.headers = new cloudfront.ResponseHeadersPolicy(this, 'Headers', {
      comment: "The console's CSP and security headers",
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: CONSOLE_CSP, override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.seconds(63072000), includeSubdomains: true, preload: true, override: true },
        contentTypeOptions: { override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
      },
    });
    // Listing lets S3 answer a missing asset 404 (as the local server does) rather than 403. It never lists
    // the bucket: the function sends it only /console/index.html and /console/assets/<name>, without a query.
    const files = origins.S3BucketOrigin.withOriginAccessControl(this.bucket, {
      originAccessLevels: [cloudfront.AccessLevel.READ, cloudfront.AccessLevel.LIST],
    });
    // The edge keeps what the origin allows and nothing else: assets for a year, the page and the API's answers never.
    const assetsCache = new cloudfront.CachePolicy(this, 'AssetsCache', {
      comment: 'Console assets: as long as their Cache-Control says, nothing that says nothing',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.days(365),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const fromBucket = (cachePolicy: cloudfront.ICachePolicy): cloudfront.BehaviorOptions => ({
      origin: files,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      // Other methods are the API's to answer (the function sends them there).
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      cachePolicy,
      // As the API's own behaviors: what the function sends to the API arrives with every viewer header but Host.
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: this.headers,
      compress: true,
      functionAssociations: [{ function: this.function, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
    });
    const api = props.apiBehavior(props.apiOrigin);
    const pages = fromBucket(cloudfront.CachePolicy.CACHING_DISABLED);
    this.behaviors = {
      ...Object.fromEntries(CONSOLE_API_PREFIXES.map((p) => [`${p}*`, api])),
      [`${CONSOLE_ASSETS_PREFIX}*`]: fromBucket(assetsCache),
      [CONSOLE_PREFIX]: pages,
      [`${CONSOLE_PREFIX}/*`]: pages,
    };
  }
}

/**
 * cloudfront-js-2.0 source: the rule of functions/console/console-site-paths.ts written out from its own
 * constants (ES5 string methods only), then the front door's viewer headers, then the routing.
 */
export function consoleSiteFunctionCode(apiOriginId: string, viewerHeaderCode: readonly string[]): string {
  const json = JSON.stringify;
  return [
    "import cf from 'cloudfront';",
    `var PREFIX = ${json(CONSOLE_PREFIX)};`,
    `var ASSETS = ${json(CONSOLE_ASSETS_PREFIX)};`,
    `var API_PATHS = ${json(CONSOLE_API_PATHS)};`,
    `var API_PREFIXES = ${json(CONSOLE_API_PREFIXES)};`,
    `var PAGE_PATH = ${CONSOLE_PAGE_PATH.toString()};`,
    `var ASSET_NAME = ${CONSOLE_ASSET_NAME.toString()};`,
    'function startsWith(s, p) { return s.slice(0, p.length) === p; }',
    'function targetOf(path) {',
    "  if (path !== PREFIX && !startsWith(path, PREFIX + '/')) return undefined;",
    '  if (API_PATHS.indexOf(path) !== -1 || API_PREFIXES.some(function (p) { return startsWith(path, p); })) return undefined;',
    "  if (startsWith(path, ASSETS)) return ASSET_NAME.test(path.slice(ASSETS.length)) ? 'asset' : undefined;",
    "  return PAGE_PATH.test(path) ? 'page' : undefined;",
    '}',
    'function handler(event) {',
    ...viewerHeaderCode.map((line) => `  ${line}`),
    "  var target = event.request.method === 'GET' || event.request.method === 'HEAD' ? targetOf(event.request.uri) : undefined;",
    `  if (target === undefined) cf.selectRequestOriginById(${json(apiOriginId)});`,
    // S3 reads a signed request's query (response-content-type=…, versionId=…): the bucket gets none.
    '  else event.request.querystring = {};',
    `  if (target === 'page') event.request.uri = ${json(CONSOLE_INDEX_PATH)};`,
    '  return event.request;',
    '}',
  ].join('\n');
}
