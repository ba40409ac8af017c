/**
 * The one construct that owns every Lambda default of the platform: runtime, architecture, bundle
 * format, tracing, logs, environment, and the translation of a route's `Grant`s into IAM permissions.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Grant } from '../../functions/kernel/route-vocabulary';
import type { FunctionContext } from './function-context';
import { GrantPolicy, baseEnvironment } from './grants';
import { BUNDLE_HANDLER, lambdaBundleCode } from './lambda-bundle-code';

export { SERVICE_NAME } from './grants';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** nodejs22.x by project decision; changing the runtime of every function is this one line. */
export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_22_X;

/**
 * A function's description: `<layer>/<name>` of its entry (`http/org-apps-list`, `workers/webhooks-worker`),
 * as before the areas got folders of their own, so a deployed stage's functions keep their descriptions.
 */
export function functionDescription(handler: string): string {
  return handler.split('/').slice(-2).join('/');
}

/** Path of a Lambda entry module: functions/<area>/<layer>/<name>.handler.ts for a handler `<area>/<layer>/<name>`. */
export function handlerEntry(handler: string): string {
  return path.join(REPO_ROOT, 'functions', `${handler}.handler.ts`);
}

export interface AppFunctionProps {
  readonly context: FunctionContext;
  /** The entry module's path under functions/, without `.handler.ts` (`export/http/org-apps-list`). */
  readonly handler: string;
  /** Everything the function may touch beyond its own logs and traces. */
  readonly grants: readonly Grant[];
  /** @default 10 */
  readonly timeoutSeconds?: number;
  /** @default 1024: CPU scales with memory, and API latency matters more than the few cents. */
  readonly memoryMb?: number;
  /** Caps this function's share of the account's concurrency. @default - unreserved */
  readonly reservedConcurrency?: number;
}

export class AppFunction extends Construct {
  public readonly function: lambda.Function;
  public readonly role: iam.Role;
  public readonly logGroup: logs.LogGroup;
  private grants!: GrantPolicy;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);
    const { config } = props.context;

    const entry = handlerEntry(props.handler);
    if (!existsSync(entry)) {
      throw new Error(`Lambda entry ${path.relative(REPO_ROOT, entry)} does not exist (id ${id})`);
    }

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: config.logRetention,
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    // An own role instead of the default one, which carries the AWS managed basic-execution policy
    // (logs on every log group); this one may write to its own log group only.
    this.role = new iam.Role(this, 'Role', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(this.role);

    const environment = baseEnvironment(props.context);

    this.function = new lambda.Function(this, 'Function', {
      code: lambdaBundleCode(REPO_ROOT, entry),
      handler: BUNDLE_HANDLER,
      description: functionDescription(props.handler),
      runtime: FUNCTION_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memoryMb ?? 1024,
      timeout: Duration.seconds(props.timeoutSeconds ?? 10),
      reservedConcurrentExecutions: props.reservedConcurrency,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel.INFO,
      systemLogLevelV2: lambda.SystemLogLevel.WARN,
      tracing: lambda.Tracing.ACTIVE,
      environment: { ...environment, NODE_OPTIONS: '--enable-source-maps' },
    });

    this.grants = new GrantPolicy(this.role, props.context, (name, value) => this.function.addEnvironment(name, value));
    for (const grant of props.grants) this.grant(grant);

    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Active X-Ray tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions.',
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'nodejs22.x is a supported, non-deprecated runtime chosen by the project (docs/adr/0006); FUNCTION_RUNTIME switches every function at once.',
    });
  }

  /** Turns one route grant into the narrowest IAM statement that serves it (and env where needed). */
  public grant(grant: Grant): void {
    this.grants.grant(grant);
  }
}
