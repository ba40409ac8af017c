/**
 * A new area is a list of routes (docs/adr/0013): area C's routes in the table give it a
 * stack, a REST API behind the one front door, its key authorizer and usage plan, its gateway answers,
 * and a place in what the admin key routes manage, with nothing else written by hand.
 */
import { describe, expect, it } from 'vitest';
import { functionDescription } from '../../lib/constructs/app-function';
import { Template } from 'aws-cdk-lib/assertions';
import { ENV } from '../../functions/kernel/env';
import { AUTHORIZER_HANDLER, gatewayAnswers, gatewayTemplate, usagePlanThrottle } from '../../functions/kernel/http/api-gateway-contract';
import { ROUTES } from '../../functions/routes';
import { addPlatformStacks } from '../../lib/platform';
import { stageConfig } from '../../lib/stage-config';
import { newTestApp, resourcesOfType, TEST_ENV } from './platform-fixture';

const stacks = addPlatformStacks(newTestApp(), { config: stageConfig('prod'), env: TEST_ENV, routes: ROUTES });
const acpStack = stacks.areas.get('acp');

describe('area C appears from its routes alone', () => {
  it('gets a stack of its own, and no other area’s stack changes its name', () => {
    expect(acpStack?.stackName).toBe('Platform-prod-Acp');
    expect([...stacks.areas.values()].map((s) => s.stackName).sort()).toEqual([
      'Platform-prod-Acp',
      'Platform-prod-Admin',
      'Platform-prod-Chat',
      'Platform-prod-Console',
      'Platform-prod-Export',
      'Platform-prod-ReleaseNotes',
    ]);
  });

  it('is served under the one base URL at /acp/*', () => {
    const edge = Template.fromStack(stacks.edge);
    const distribution = Object.values(resourcesOfType(edge, 'AWS::CloudFront::Distribution'))[0]!.Properties!.DistributionConfig;
    const behaviors = distribution.CacheBehaviors as { PathPattern: string; TargetOriginId: string }[];
    const origins = distribution.Origins as { Id: string; DomainName: unknown }[];
    const behavior = behaviors.find((b) => b.PathPattern === '/acp/*')!;
    expect(JSON.stringify(origins.find((o) => o.Id === behavior.TargetOriginId)!.DomainName)).toContain('Platform-prod-Acp:');
  });

  it('has its key authorizer, usage plan and gateway answers in the ACP shape', () => {
    const template = Template.fromStack(acpStack!);
    template.hasResourceProperties('AWS::Lambda::Function', { Description: functionDescription(AUTHORIZER_HANDLER.acpKey) });
    template.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
    const throttle = usagePlanThrottle('acpKey');
    template.hasResourceProperties('AWS::ApiGateway::UsagePlan', {
      Throttle: { RateLimit: throttle.rateLimit, BurstLimit: throttle.burstLimit },
    });
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      ResponseTemplates: { 'application/json': gatewayTemplate('acp', gatewayAnswers('acpKey').THROTTLED) },
    });
  });

  it('is among what the admin key routes manage', () => {
    const admin = Template.fromStack(stacks.areas.get('admin')!);
    const revoke = Object.values(resourcesOfType(admin, 'AWS::Lambda::Function')).find((f) => f.Properties!.Description === 'http/admin-key-revoke')!;
    const vars = revoke.Properties!.Environment.Variables;
    expect(JSON.stringify(vars[ENV.gatewayUsagePlans])).toMatch(/\\"acpKey\\":\\"",\{"Fn::ImportValue":"Platform-prod-Acp:/);
    expect(JSON.stringify(vars[ENV.gatewayAuthorizerStages])).toContain('Platform-prod-Acp:');
  });
});
