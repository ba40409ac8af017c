/**
 * The console's sign-in on AWS (docs/adr/0042): the user pool and its managed-login domain in the data
 * stack, the confidential app client with its branding and secret in the edge stack, the outputs, and
 * the `identity:read` grant a console function will hold.
 */
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../functions/kernel/env';
import { TABLE_DESIGN } from '../../functions/kernel/adapters/table-design';
import type { RouteDef } from '../../functions/kernel/route-vocabulary';
import { ROUTES } from '../../functions/routes';
import { functionDescription } from '../../lib/constructs/app-function';
import { DataStack } from '../../lib/data-stack';
import { addPlatformStacks } from '../../lib/platform';
import { stageConfig } from '../../lib/stage-config';
import { importedId, newTestApp, refId, resourcesOfType, synthPlatform, TEST_ENV } from './platform-fixture';

const platform = synthPlatform('prod');
const data = platform.dataTemplate;
const edge = platform.templates.get(platform.edge.stackName)!;
const poolId = Object.keys(resourcesOfType(data, 'AWS::Cognito::UserPool'))[0]!;

describe('the console user pool', () => {
  it('is one pool in the data stack, signing up by e-mail with the e-mail verified', () => {
    data.resourceCountIs('AWS::Cognito::UserPool', 1);
    edge.resourceCountIs('AWS::Cognito::UserPool', 0);
    data.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolName: 'platform-prod-console',
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      UsernameConfiguration: { CaseSensitive: false },
      Schema: Match.arrayWith([Match.objectLike({ Name: 'email', Required: true })]),
      UserAttributeUpdateSettings: { AttributesRequireVerificationBeforeUpdate: ['email'] },
    });
  });

  it('asks for 12 characters of four classes, offers TOTP but no SMS, and recovers by e-mail only', () => {
    data.hasResourceProperties('AWS::Cognito::UserPool', {
      Policies: {
        PasswordPolicy: { MinimumLength: 12, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true },
      },
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
      UserPoolTier: 'ESSENTIALS',
    });
    expect(resourcesOfType(data, 'AWS::Cognito::UserPool')[poolId]!.Properties!.UserPoolAddOns).toBeUndefined();
  });

  it('is retained and deletion-protected outside dev, disposable in dev', () => {
    expect(resourcesOfType(data, 'AWS::Cognito::UserPool')[poolId]!.DeletionPolicy).toBe('Retain');
    data.hasResourceProperties('AWS::Cognito::UserPool', { DeletionProtection: 'ACTIVE' });
    const dev = Template.fromStack(new DataStack(newTestApp(), 'Dev', { env: TEST_ENV, config: stageConfig('dev') }));
    const [devPool] = Object.values(resourcesOfType(dev, 'AWS::Cognito::UserPool'));
    expect(devPool!.DeletionPolicy).toBe('Delete');
    expect(devPool!.Properties!.DeletionProtection).toBe('INACTIVE');
  });

  it('serves managed login (the newer version) on a domain of its own', () => {
    data.hasResourceProperties('AWS::Cognito::UserPoolDomain', {
      Domain: `platform-prod-${TEST_ENV.account}`,
      ManagedLoginVersion: 2,
      UserPoolId: { Ref: poolId },
    });
  });

  it('keeps console sessions in the one table, whose TTL attribute expires them', () => {
    data.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    data.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      TimeToLiveSpecification: { AttributeName: TABLE_DESIGN.ttlAttribute, Enabled: true },
    });
  });
});

describe('the console app client', () => {
  const [clientId, client] = Object.entries(resourcesOfType(edge, 'AWS::Cognito::UserPoolClient'))[0]!;
  const distribution = Object.keys(resourcesOfType(edge, 'AWS::CloudFront::Distribution'))[0]!;
  const frontDoor = (path: string) => ({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distribution, 'DomainName'] }, path]] });

  it('is a confidential client of the pool: code grant only, openid email profile, the front door URLs', () => {
    edge.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    expect(importedId(client.Properties!.UserPoolId, data)).toBe(poolId);
    expect(client.Properties).toMatchObject({
      GenerateSecret: true,
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthScopes: ['openid', 'email', 'profile'],
      SupportedIdentityProviders: ['COGNITO'],
      CallbackURLs: [frontDoor('/console/auth/callback')],
      LogoutURLs: [frontDoor('/console/')],
      PreventUserExistenceErrors: 'ENABLED',
      EnableTokenRevocation: true,
    });
  });

  it('issues access and ID tokens for an hour and rotates 30-day refresh tokens', () => {
    expect(client.Properties).toMatchObject({
      AccessTokenValidity: 60,
      IdTokenValidity: 60,
      RefreshTokenValidity: 30 * 24 * 60,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'minutes' },
      RefreshTokenRotation: { Feature: 'ENABLED', RetryGracePeriodSeconds: 10 },
      // Rotation is refused with REFRESH_TOKEN_AUTH, which Cognito's default flows would include.
      ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH'],
    });
  });

  it('turns managed login on for the client with the provided branding', () => {
    edge.hasResourceProperties('AWS::Cognito::ManagedLoginBranding', { ClientId: { Ref: clientId }, UseCognitoProvidedValues: true });
  });

  it('keeps the generated secret out of the template: a named secret takes it from the client attribute', () => {
    const secrets = resourcesOfType(edge, 'AWS::SecretsManager::Secret');
    const [secret] = Object.values(secrets).filter((s) => s.Properties!.Name === 'platform-prod/console-client');
    expect(JSON.stringify(secret!.Properties!.SecretString)).toContain(`"Fn::GetAtt":["${clientId}","ClientSecret"]`);
    expect(JSON.stringify(edge.toJSON())).not.toMatch(/client_secret\\?":\\?"[A-Za-z0-9]/);
  });

  it('outputs the console URL, the issuer, the login domain, the client id and the secret ARN', () => {
    const outputs = edge.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.ConsoleUrl!.Value).toEqual(frontDoor('/console/'));
    expect(outputs.ConsoleClientId!.Value).toEqual({ Ref: clientId });
    expect(refId(outputs.ConsoleClientSecretArn!.Value)).toBeDefined();
    expect(importedId(outputs.ConsoleIssuerUrl!.Value, data)).toBe(poolId);
    expect(JSON.stringify(outputs.ConsoleAuthBaseUrl!.Value)).toContain('Fn::ImportValue');
  });
});

describe('the identity:read grant', () => {
  const probe: RouteDef = { ...ROUTES[0]!, id: 'probeConsoleSignIn', grants: ['table:read', 'identity:read'] };
  const app = newTestApp();
  const stacks = addPlatformStacks(app, { config: stageConfig('prod'), env: TEST_ENV, routes: [probe] });
  const template = Template.fromStack(stacks.areas.get(probe.area)!);
  const dataTemplate = Template.fromStack(stacks.data);

  it('lets the function read only the console client secret, by its fixed name', () => {
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          {
            Effect: 'Allow',
            Action: 'secretsmanager:GetSecretValue',
            Resource: `arn:aws:secretsmanager:${TEST_ENV.region}:${TEST_ENV.account}:secret:platform-prod/console-client-??????`,
          },
        ]),
      },
    });
  });

  it('gives the function the issuer, the login domain and the secret name', () => {
    const [fn] = Object.values(resourcesOfType(template, 'AWS::Lambda::Function')).filter(
      (f) => f.Properties!.Environment?.Variables?.[ENV.consoleClientSecret],
    );
    const vars = fn!.Properties!.Environment.Variables as Record<string, unknown>;
    expect(vars[ENV.consoleClientSecret]).toBe('platform-prod/console-client');
    const pool = Object.keys(resourcesOfType(dataTemplate, 'AWS::Cognito::UserPool'))[0]!;
    expect(importedId(vars[ENV.consoleIssuerUrl], dataTemplate)).toBe(pool);
    const domain = Object.keys(resourcesOfType(dataTemplate, 'AWS::Cognito::UserPoolDomain'))[0]!;
    const [, [scheme, domainRef, host]] = (vars[ENV.consoleAuthBaseUrl] as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
    expect([scheme, importedId(domainRef, dataTemplate), host]).toEqual(['https://', domain, `.auth.${TEST_ENV.region}.amazoncognito.com`]);
  });

  it('leaves every other function without the console variables', () => {
    const granted = new Set(ROUTES.filter((r) => r.grants.includes('identity:read')).map((r) => functionDescription(r.handler)));
    for (const fn of Object.values(resourcesOfType(platform.apiTemplate, 'AWS::Lambda::Function'))) {
      const variable = fn.Properties!.Environment?.Variables?.[ENV.consoleClientSecret];
      expect(variable, String(fn.Properties!.Description)).toBe(granted.has(String(fn.Properties!.Description)) ? 'platform-prod/console-client' : undefined);
    }
  });

  it('needs no acknowledgement beyond those the platform already makes', () => {
    const report = new AwsSolutionsChecks(app).validateScope(app);
    expect(report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} at ${r.constructPath ?? '?'}`))).toEqual([]);
    expect(Stack.of(stacks.data.consoleIdentity).stackName).toBe(stacks.data.stackName);
  });
});
