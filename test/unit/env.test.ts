import { describe, expect, it } from 'vitest';
import { ENV, parseEnvVars } from '../../functions/kernel/env';

const GOOD = {
  [ENV.stage]: 'prod',
  [ENV.tableName]: 'platform',
  [ENV.bucketName]: 'uploads',
  [ENV.jobsQueueUrl]: 'https://sqs.eu-west-1.amazonaws.com/123456789012/jobs',
  [ENV.visibilityDelayMs]: '30000',
  [ENV.anonRetentionDays]: '30',
  [ENV.emptySessionMaxAgeHours]: '24',
  [ENV.appDeletionBatchSize]: '25',
};

describe('the function environment', () => {
  it('parses numbers, flags with their defaults, and the gateway variables', () => {
    const parsed = parseEnvVars({
      ...GOOD,
      [ENV.gatewayUsagePlans]: '{"orgKey":"plan1","chatKey":"plan2"}',
      [ENV.gatewayAuthorizerStages]: 'abc123/prod,def456/prod',
      [ENV.trustViewerAddress]: 'true',
    });
    expect(parsed).toEqual({
      success: true,
      data: {
        ...GOOD,
        [ENV.visibilityDelayMs]: 30000,
        [ENV.anonRetentionDays]: 30,
        [ENV.emptySessionMaxAgeHours]: 24,
        [ENV.appDeletionBatchSize]: 25,
        [ENV.bedrockEnabled]: 'false',
        [ENV.trustViewerAddress]: 'true',
        [ENV.gatewayUsagePlans]: { orgKey: 'plan1', chatKey: 'plan2' },
        [ENV.gatewayAuthorizerStages]: [
          { restApiId: 'abc123', stageName: 'prod' },
          { restApiId: 'def456', stageName: 'prod' },
        ],
      },
    });
  });

  it('names every missing or malformed variable instead of defaulting it', () => {
    const parsed = parseEnvVars({
      ...GOOD,
      [ENV.tableName]: undefined,
      [ENV.jobsQueueUrl]: 'not a url',
      [ENV.visibilityDelayMs]: '-1',
      [ENV.appDeletionBatchSize]: '101',
      [ENV.anonRetentionDays]: '1.5',
      [ENV.bedrockEnabled]: 'yes',
      [ENV.gatewayUsagePlans]: '{"adminKey":"x"}',
      [ENV.gatewayAuthorizerStages]: 'abc123',
      [ENV.webhookSecretsKeyArn]: 'key-1',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.success ? [] : [...parsed.invalid].sort()).toEqual(
      [
        ENV.tableName,
        ENV.jobsQueueUrl,
        ENV.visibilityDelayMs,
        ENV.appDeletionBatchSize,
        ENV.anonRetentionDays,
        ENV.bedrockEnabled,
        ENV.gatewayUsagePlans,
        ENV.gatewayAuthorizerStages,
        ENV.webhookSecretsKeyArn,
      ].sort(),
    );
  });

  it('reads the console sign-in variables of the identity:read grant, and refuses an issuer that is no URL', () => {
    const identity = {
      [ENV.consoleIssuerUrl]: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc',
      [ENV.consoleAuthBaseUrl]: 'https://platform-prod-123456789012.auth.eu-west-1.amazoncognito.com',
      [ENV.consoleClientSecret]: 'platform-prod/console-client',
    };
    const parsed = parseEnvVars({ ...GOOD, ...identity });
    expect(parsed.success && parsed.data).toMatchObject(identity);
    const bad = parseEnvVars({ ...GOOD, ...identity, [ENV.consoleIssuerUrl]: 'cognito', [ENV.consoleClientSecret]: '' });
    expect(bad.success ? [] : [...bad.invalid].sort()).toEqual([ENV.consoleIssuerUrl, ENV.consoleClientSecret].sort());
  });
});
