/**
 * The stacks of one stage, shared by bin/app.ts and the infra tests so both build the same app
 * (docs/adr/0013): the data stack; one stack per API area of the route table, the spec's areas behind
 * one CloudFront front door and the admin API beside it; the workers; the front door itself.
 */
import { fileURLToPath } from 'node:url';
import { Tags, type App, type Environment } from 'aws-cdk-lib';
import { ROUTES } from '../functions/routes';
import type { Area, RouteDef } from '../functions/kernel/route-vocabulary';
import type { KeyClass } from '../functions/kernel/http/api-gateway-contract';
import { AreaStack } from './area-stack';
import type { FunctionContext } from './constructs/function-context';
import { DataStack } from './data-stack';
import { EdgeStack } from './edge-stack';
import { frontDoorPatterns } from './front-door';
import type { StageConfig } from './stage-config';
import { UploadStack } from './upload-stack';
import { WorkersStack } from './workers-stack';

export interface PlatformOptions {
  readonly config: StageConfig;
  /** Concrete account and region: the uploads bucket name and exact IAM resources depend on them. */
  readonly env: Required<Pick<Environment, 'account' | 'region'>>;
  /** @default ROUTES of functions/routes.ts */
  readonly routes?: readonly RouteDef[];
  /**
   * The console's build, which bin/app.ts makes before synth (functions/local/console-build.ts).
   * @default console/dist of this checkout
   */
  readonly consoleBuildDir?: string;
}

const CONSOLE_BUILD_DIR = fileURLToPath(new URL('../console/dist', import.meta.url));

export interface PlatformStacks {
  readonly data: DataStack;
  /** Every area of the route table, the admin API included, by area. */
  readonly areas: ReadonlyMap<Area, AreaStack>;
  readonly workers: WorkersStack;
  /** The upload service, when the route table has routes whose origin is `uploadService`. */
  readonly uploads?: UploadStack;
  readonly edge: EdgeStack;
}

/**
 * The order the admin API's methods were first deployed in, when one table listed every admin route.
 * API Gateway's deployment resource takes its logical id from a hash of the methods in the order they
 * are created, so this order keeps a deployed stage's deployment as it is. Admin routes not listed
 * (added since) come after, in the route table's order.
 */
const DEPLOYED_ADMIN_ORDER = [
  'adminOrgCreate',
  'adminOrgGet',
  'adminOrgKeyCreate',
  'adminOrgCreditsAdd',
  'adminKeyRevoke',
  'adminAppCreate',
  'adminAppGet',
  'adminAppUpdate',
  'adminAppDelete',
  'adminChatKeyCreate',
  'adminProductCreate',
  'adminProductsList',
  'adminProductUpdate',
  'adminAcpKeyCreate',
  'adminOrdersList',
  'adminImportCreate',
  'adminSessionDelete',
  'adminConsumerDelete',
  'adminReleasePeriodPublish',
  'adminJobRun',
];

function inDeployedOrder(routes: readonly RouteDef[]): RouteDef[] {
  const rank = (r: RouteDef) => {
    const i = DEPLOYED_ADMIN_ORDER.indexOf(r.id);
    return i === -1 ? DEPLOYED_ADMIN_ORDER.length : i;
  };
  // A stable sort: unlisted routes keep the table's order among themselves.
  return [...routes].sort((a, b) => rank(a) - rank(b));
}

const STACK_NAME: Record<Area, string> = { export: 'Export', chat: 'Chat', acp: 'Acp', releaseNotes: 'ReleaseNotes', console: 'Console', admin: 'Admin' };

export function addPlatformStacks(app: App, { config, env, routes = ROUTES, consoleBuildDir = CONSOLE_BUILD_DIR }: PlatformOptions): PlatformStacks {
  const prefix = `Platform-${config.stage}`;
  const data = new DataStack(app, `${prefix}-Data`, {
    env,
    config,
    description: `Application Platform API (${config.stage}): table, bucket, queues, keys`,
    terminationProtection: config.retainData,
  });

  const byArea = new Map<Area, RouteDef[]>();
  for (const route of routes) byArea.set(route.area, [...(byArea.get(route.area) ?? []), route]);
  const publicAreas = new Map([...byArea].filter(([area]) => area !== 'admin'));
  const patterns = frontDoorPatterns(publicAreas);

  // Routes served by the upload service have no API Gateway method (docs/adr/0016).
  const onApi = (r: RouteDef) => (r.origin ?? 'api') === 'api';
  const areas = new Map<Area, AreaStack>();
  const areaStack = (area: Area, areaRoutes: readonly RouteDef[], gateway?: FunctionContext['gateway']) =>
    new AreaStack(app, `${prefix}-${STACK_NAME[area]}`, {
      env,
      config,
      data,
      area,
      routes: areaRoutes.filter(onApi),
      behindFrontDoor: true,
      ...(gateway ? { gateway } : {}),
      description: `Application Platform API (${config.stage}): area ${area} API and functions`,
    });
  // The areas whose callers hold keys come first: the console, like the admin API, issues and revokes keys.
  for (const [area, areaRoutes] of publicAreas) if (area !== 'console') areas.set(area, areaStack(area, areaRoutes));

  // The admin API and the console create and remove the usage-plan keys of the platform's keys and
  // flush the authorizer caches of the areas above, so they are built after them (and they never refer to them).
  const usagePlans: Partial<Record<KeyClass, string>> = {};
  const authorizerStages: { restApiId: string; stageName: string }[] = [];
  for (const stack of areas.values()) {
    for (const [keyClass, plan] of Object.entries(stack.http.usagePlans)) usagePlans[keyClass as KeyClass] = plan!.usagePlanId;
    if (Object.keys(stack.http.authorizers).length) authorizerStages.push(stack.http.stageTarget);
  }
  const consoleRoutes = publicAreas.get('console');
  if (consoleRoutes) areas.set('console', areaStack('console', consoleRoutes, { usagePlans, authorizerStages }));
  const adminRoutes = inDeployedOrder(byArea.get('admin') ?? []);
  if (adminRoutes.length) {
    areas.set(
      'admin',
      new AreaStack(app, `${prefix}-Admin`, {
        env,
        config,
        data,
        area: 'admin',
        routes: adminRoutes,
        behindFrontDoor: false,
        gateway: { usagePlans, authorizerStages },
        description: `Application Platform API (${config.stage}): admin API (IAM) and its functions`,
      }),
    );
  }

  const workers = new WorkersStack(app, `${prefix}-Workers`, {
    env,
    config,
    data,
    description: `Application Platform API (${config.stage}): queue consumers, scheduled jobs, queue alarms`,
  });
  const uploadRoutes = routes.filter((r) => r.origin === 'uploadService');
  const uploads = uploadRoutes.length
    ? new UploadStack(app, `${prefix}-Uploads`, {
        env,
        config,
        data,
        routes: uploadRoutes,
        description: `Application Platform API (${config.stage}): the upload service (ECS Fargate behind an internal load balancer)`,
      })
    : undefined;
  const edge = new EdgeStack(app, `${prefix}-Edge`, {
    env,
    config,
    data,
    ...(uploads ? { uploads: { loadBalancer: uploads.loadBalancer, paths: uploadRoutes.map((r) => r.path) } } : {}),
    consoleBuildDir,
    areas: [...publicAreas.keys()].flatMap((area) => patterns.get(area)!.map((pattern) => ({ stack: areas.get(area)!, pattern }))),
    description: `Application Platform API (${config.stage}): the CloudFront front door of every area`,
  });
  Tags.of(app).add('project', 'application-platform-api');
  Tags.of(app).add('stage', config.stage);
  return { data, areas, workers, ...(uploads ? { uploads } : {}), edge };
}
