import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it, expect } from 'vitest';
import { type App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ROUTES } from '../../functions/routes';
import type { Grant, RouteDef } from '../../functions/kernel/route-vocabulary';
import { ENV } from '../../functions/kernel/env';
import { addPlatformStacks } from '../../lib/platform';
import { stageConfig } from '../../lib/stage-config';
import { newTestApp, TEST_ENV } from './platform-fixture';

/** Findings cdk-nag reports for the app, as readable lines (empty when all are acknowledged). */
function findings(app: App): string[] {
  const report = new AwsSolutionsChecks(app).validateScope(app);
  return report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.severity} ${v.ruleName} at ${r.constructPath ?? '?'}`));
}

interface ValidationReport {
  pluginReports: { pluginName: string; violations: unknown[] }[];
}

describe('cdk-nag AwsSolutions', () => {
  it.each(['dev', 'prod'])('%s: no unacknowledged error or warning, and synth runs the plugin', (stage) => {
    const app = newTestApp();
    addPlatformStacks(app, { config: stageConfig(stage), env: TEST_ENV });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

    expect(findings(app)).toEqual([]);
    // In tests the app synthesizes in memory, where any plugin violation throws.
    const assembly = app.synth();
    const report = JSON.parse(readFileSync(path.join(assembly.directory, 'validation-report.json'), 'utf8')) as ValidationReport;
    const nag = report.pluginReports.filter((r) => r.pluginName === 'AwsSolutions');
    expect(nag.flatMap((r) => r.violations)).toEqual([]);
  });

  it('fails synth on a finding nobody acknowledged (the check can fail)', () => {
    const app = newTestApp();
    const stack = new Stack(app, 'Probe', { env: TEST_ENV });
    new sqs.Queue(stack, 'Unencrypted', { encryption: sqs.QueueEncryption.UNENCRYPTED, enforceSSL: true });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow(/AwsSolutions-SQS2/);
  });

  it('acknowledges exactly the wildcard of the bucket grants, and sets the webhooks queue URL and secrets key', () => {
    const grants: Grant[] = [
      'table:read',
      'table:write',
      'bucket:read',
      'bucket:write',
      'jobs:send',
      'webhooks:send',
      'exports:send',
      'order-events:send',
      'secrets:seal',
      'secrets:open',
    ];
    const probe: RouteDef = { ...ROUTES[0]!, id: 'probeEveryGrant', grants };
    const app = newTestApp();
    const { data, areas } = addPlatformStacks(app, { config: stageConfig('prod'), env: TEST_ENV, routes: [probe] });

    expect(findings(app)).toEqual([]);
    const template = Template.fromStack(areas.get(probe.area)!);
    const bucket = `arn:aws:s3:::${data.uploadsBucketName}`;
    const resourcesByAction = new Map<string, unknown[]>();
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy'))) {
      for (const statement of policy.Properties.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[]) {
        for (const action of [statement.Action].flat() as string[]) {
          resourcesByAction.set(action, [...(resourcesByAction.get(action) ?? []), ...[statement.Resource].flat()]);
        }
      }
    }
    expect(resourcesByAction.get('s3:ListBucket')).toEqual([bucket]);
    for (const action of ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload']) {
      expect(resourcesByAction.get(action), action).toEqual([`${bucket}/*`]);
    }
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: {
        Variables: Match.objectLike({
          [ENV.webhooksQueueUrl]: Match.anyValue(),
          [ENV.orderEventsQueueUrl]: Match.anyValue(),
          [ENV.webhookSecretsKeyArn]: Match.anyValue(),
        }),
      },
    });
  });
});
