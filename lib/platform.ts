/**
 * The stacks of one stage, shared by bin/app.ts and the infra tests so both build the same app.
 */
import { Tags, type App, type Environment } from 'aws-cdk-lib';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';
import type { StageConfig } from './stage-config';

export interface PlatformOptions {
  readonly config: StageConfig;
  /** Concrete account and region: the uploads bucket name and exact IAM resources depend on them. */
  readonly env: Required<Pick<Environment, 'account' | 'region'>>;
}

export interface PlatformStacks {
  readonly data: DataStack;
  readonly api: ApiStack;
}

export function addPlatformStacks(app: App, { config, env }: PlatformOptions): PlatformStacks {
  const prefix = `Platform-${config.stage}`;
  const data = new DataStack(app, `${prefix}-Data`, {
    env,
    config,
    description: `Application Platform API (${config.stage}): table, bucket, queues, keys`,
    terminationProtection: config.retainData,
  });
  const api = new ApiStack(app, `${prefix}-Api`, {
    env,
    config,
    data,
    description: `Application Platform API (${config.stage}): API, functions, jobs, alarms`,
  });
  Tags.of(app).add('project', 'application-platform-api');
  Tags.of(app).add('stage', config.stage);
  return { data, api };
}
