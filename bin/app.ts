/**
 * CDK entry point: reads the stage, creates its stacks and runs cdk-nag (AwsSolutions) on them.
 *   npx cdk synth -c stage=prod [-c alarmEmail=ops@example.com] [-c openAiBaseUrl=https://models.internal/v1]
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ensureConsoleBuilt } from '../functions/local/console-build';
import { addPlatformStacks } from '../lib/platform';
import { stageConfig } from '../lib/stage-config';

const app = new App();
const stage = (app.node.tryGetContext('stage') as string | undefined) ?? 'dev';
const alarmEmail = app.node.tryGetContext('alarmEmail') as string | undefined;
const openAiBaseUrl = app.node.tryGetContext('openAiBaseUrl') as string | undefined;

// The CLI sets CDK_DEFAULT_* from the caller's credentials. Without them (offline synth, CI) a dummy
// env keeps synth deterministic; a deploy to it fails instead of landing in an unintended account.
const env = {
  account: process.env.CDK_DEFAULT_ACCOUNT ?? '123456789012',
  region: process.env.CDK_DEFAULT_REGION ?? 'eu-west-1',
};

// The front door ships the console's build; sources unchanged since the last build cost only a digest.
await ensureConsoleBuilt();
addPlatformStacks(app, {
  config: stageConfig(stage, { ...(alarmEmail ? { alarmEmail } : {}), ...(openAiBaseUrl ? { openAiBaseUrl } : {}) }),
  env,
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
