/**
 * The gateway in front of the functions (docs/adr/0012): key authorizers, usage plans per key class,
 * the admin routes that manage gateway keys, and API Gateway's own answers in each area's shape.
 */
import { describe, expect, it } from 'vitest';
import { functionDescription } from '../../lib/constructs/app-function';
import type { CfnElement } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { ENV } from '../../functions/kernel/env';
import {
  AUTHORIZER_CACHE_TTL_SECONDS,
  AUTHORIZER_HANDLER,
  gatewayAnswers,
  gatewayTemplate,
  usagePlanThrottle,
  type GatewayResponseType,
  type KeyClass,
} from '../../functions/kernel/http/api-gateway-contract';
import { ROUTES } from '../../functions/routes';
import type { Area } from '../../functions/kernel/route-vocabulary';
import { keyClassOf } from '../../lib/constructs/area-api';
import { decimalAbove } from '../../lib/constructs/decimal-regex';
import { MAX_CHAT_REQUEST_BYTES } from '../../functions/kernel/domain/body-limits';
import { refId, resourcesOfType, synthPlatform, TEST_ENV } from './platform-fixture';

const { areas, templates } = synthPlatform('prod');
const templateOf = (area: Area) => templates.get(areas.get(area)!.stackName)!;

/** Export name -> `<stack>#<logical id>` of the value every stack exports. */
const exportsByName = new Map(
  [...templates].flatMap(([stackName, t]) =>
    Object.values((t.toJSON().Outputs ?? {}) as Record<string, { Value: unknown; Export?: { Name: string } }>)
      .filter((o) => o.Export)
      .map((o) => [o.Export!.Name, `${stackName}#${refId(o.Value)}`] as const),
  ),
);

/** A template value as text, with every Ref or import written `<stack>#<logical id>` of what it names. */
function render(value: unknown, ownStack: string): string {
  const v = value as Record<string, any>;
  if (typeof value === 'string') return value;
  if (v['Fn::Join']) return (v['Fn::Join'][1] as unknown[]).map((part) => render(part, ownStack)).join(v['Fn::Join'][0]);
  if (v['Fn::ImportValue']) return exportsByName.get(v['Fn::ImportValue'])!;
  if (refId(value)) return `${ownStack}#${refId(value)}`;
  throw new Error(`cannot render ${JSON.stringify(value)}`);
}

/** `<stack>#<logical id>` of a construct's CloudFormation resource. */
const named = (construct: { node: { defaultChild?: unknown } }, stack: { stackName: string; getLogicalId: (e: CfnElement) => string }) =>
  `${stack.stackName}#${stack.getLogicalId(construct.node.defaultChild as CfnElement)}`;

/** The key class of an area's keyed routes (an area mixes public and keyed routes, area C does). */
const keyClassOfArea = (area: string): KeyClass | undefined =>
  ROUTES.filter((r) => r.area === area)
    .map(keyClassOf)
    .find((k) => k !== undefined);

describe('key authorizers and usage plans', () => {
  const keyAreas = [...areas].filter(([, stack]) => Object.keys(stack.http.authorizers).length > 0);

  it('puts a cached REQUEST authorizer in front of every key route, keyed by the Authorization header', () => {
    expect(keyAreas.map(([a]) => a).sort()).toEqual(['acp', 'chat', 'export']);
    for (const [area] of keyAreas) {
      const template = templateOf(area);
      const authorizers = resourcesOfType(template, 'AWS::ApiGateway::Authorizer');
      expect(Object.keys(authorizers)).toHaveLength(1);
      const [authorizerId, authorizer] = Object.entries(authorizers)[0]!;
      expect(authorizer.Properties).toMatchObject({
        Type: 'REQUEST',
        IdentitySource: 'method.request.header.Authorization',
        AuthorizerResultTtlInSeconds: AUTHORIZER_CACHE_TTL_SECONDS,
      });
      const keyClass = keyClassOfArea(area)!;
      template.hasResourceProperties('AWS::Lambda::Function', { Description: functionDescription(AUTHORIZER_HANDLER[keyClass]) });
      const fnId = refId((authorizer.Properties!.AuthorizerUri as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1].find((p) => refId(p)))!;
      expect(resourcesOfType(template, 'AWS::Lambda::Function')[fnId]!.Properties!.Description).toBe(functionDescription(AUTHORIZER_HANDLER[keyClass]));
      // It reads keys and nothing else (`table:read`), and API Gateway may invoke it.
      const roleId = refId(resourcesOfType(template, 'AWS::Lambda::Function')[fnId]!.Properties!.Role);
      const actions = Object.values(resourcesOfType(template, 'AWS::IAM::Policy'))
        .filter((p) => (p.Properties!.Roles as unknown[]).some((r) => refId(r) === roleId))
        .flatMap((p) => (p.Properties!.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((st) => [st.Action].flat()));
      expect(actions.filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:')).sort()).toEqual([
        'dynamodb:BatchGetItem',
        'dynamodb:GetItem',
        'dynamodb:Query',
      ]);
      template.hasResourceProperties('AWS::Lambda::Permission', { FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] }, Principal: 'apigateway.amazonaws.com' });
      template.hasResourceProperties('AWS::ApiGateway::RestApi', { ApiKeySourceType: 'AUTHORIZER' });
      // Every keyed method goes through it; the area's public routes (area C's discovery) take no key.
      const publicPaths = ROUTES.filter((r) => r.area === area && keyClassOf(r) === undefined).length;
      const methods = Object.values(resourcesOfType(template, 'AWS::ApiGateway::Method'))
        .map((x) => x.Properties!)
        .filter((m) => m.HttpMethod !== 'OPTIONS');
      const keyed = methods.filter((m) => m.AuthorizationType === 'CUSTOM');
      expect(methods.length - keyed.length).toBe(publicPaths);
      for (const m of keyed) {
        expect(m).toMatchObject({ AuthorizationType: 'CUSTOM', ApiKeyRequired: true });
        expect(refId(m.AuthorizerId)).toBe(authorizerId);
      }
      for (const m of methods.filter((x) => x.AuthorizationType !== 'CUSTOM')) {
        expect(m.AuthorizationType).toBe('NONE');
        expect(m.ApiKeyRequired ?? false).toBe(false);
      }
    }
  });

  it('meters each key class with a usage plan just above the exact limit, on its area stage, with no quota', () => {
    for (const [area] of keyAreas) {
      const template = templateOf(area);
      const keyClass = keyClassOfArea(area)!;
      const plans = Object.values(resourcesOfType(template, 'AWS::ApiGateway::UsagePlan')).map((p) => p.Properties!);
      expect(plans).toHaveLength(1);
      const throttle = usagePlanThrottle(keyClass);
      expect(plans[0]!.Throttle).toEqual({ RateLimit: throttle.rateLimit, BurstLimit: throttle.burstLimit });
      expect(plans[0]!.Quota).toBeUndefined();
      // Keys are the admin API's to create, one per platform key, at run time.
      expect(Object.keys(resourcesOfType(template, 'AWS::ApiGateway::ApiKey'))).toEqual([]);
      expect(Object.keys(resourcesOfType(template, 'AWS::ApiGateway::UsagePlanKey'))).toEqual([]);
      const stageId = Object.keys(resourcesOfType(template, 'AWS::ApiGateway::Stage'))[0]!;
      const apiId = Object.keys(resourcesOfType(template, 'AWS::ApiGateway::RestApi'))[0]!;
      expect(plans[0]!.ApiStages).toHaveLength(1);
      expect(refId(plans[0]!.ApiStages[0].Stage)).toBe(stageId);
      expect(refId(plans[0]!.ApiStages[0].ApiId)).toBe(apiId);
    }
  });

  it.each(['admin', 'console'] as const)('lets exactly the %s key routes manage API keys, usage-plan keys and the authorizer caches', (area) => {
    const adminStack = areas.get(area)!;
    const admin = templateOf(area);
    const functions = resourcesOfType(admin, 'AWS::Lambda::Function');
    const policies = Object.values(resourcesOfType(admin, 'AWS::IAM::Policy'));
    const withGrant = ROUTES.filter((r) => r.grants.includes('apiKeys:manage') && r.area === area)
      .map((r) => functionDescription(r.handler))
      .sort();
    expect(withGrant).toEqual(
      area === 'admin'
        ? ['http/admin-acp-key-create', 'http/admin-chat-key-create', 'http/admin-key-revoke', 'http/admin-org-key-create']
        : ['http/console-acp-key-create', 'http/console-chat-key-create', 'http/console-key-revoke', 'http/console-key-rotate', 'http/console-org-key-create'],
    );
    expect(ROUTES.filter((r) => r.grants.includes('apiKeys:manage') && r.area !== 'admin' && r.area !== 'console')).toEqual([]);

    // What the grant must name: each key class's usage plan, each key area's API stage.
    const apigw = (path: string) => `arn:aws:apigateway:${TEST_ENV.region}::${path}`;
    const plans = Object.fromEntries(keyAreas.flatMap(([, st]) => Object.entries(st.http.usagePlans).map(([k, plan]) => [k, named(plan!, st)])));
    expect(Object.keys(plans).sort()).toEqual(['acpKey', 'chatKey', 'orgKey']);
    const stages = keyAreas.map(([, st]) => `${named(st.http.api, st)}/${named(st.http.api.deploymentStage, st)}`).sort();
    const expected = {
      'apigateway:POST': [apigw('/apikeys'), ...Object.values(plans).map((id) => apigw(`/usageplans/${id}/keys`))].sort(),
      'apigateway:GET': [apigw('/apikeys')],
      'apigateway:DELETE': [
        apigw('/apikeys/*'),
        ...keyAreas.map(([, st]) => apigw(`/restapis/${named(st.http.api, st)}/stages/${named(st.http.api.deploymentStage, st)}/cache/authorizers`)),
      ].sort(),
    };

    for (const [id, fn] of Object.entries(functions)) {
      const vars = fn.Properties!.Environment.Variables;
      const granted = withGrant.includes(fn.Properties!.Description);
      expect(ENV.gatewayUsagePlans in vars, fn.Properties!.Description).toBe(granted);
      expect(ENV.gatewayAuthorizerStages in vars).toBe(granted);
      const roleId = refId(fn.Properties!.Role);
      const statements = policies
        .filter((p) => (p.Properties!.Roles as unknown[]).some((r) => refId(r) === roleId))
        .flatMap((p) => p.Properties!.PolicyDocument.Statement as { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown }[])
        .filter((st) => [st.Action].flat().some((a) => a.startsWith('apigateway:')));
      if (!granted) {
        expect(statements, id).toEqual([]);
        continue;
      }
      const resourcesByAction: Record<string, string[]> = {};
      for (const st of statements) {
        expect(st.Effect).toBe('Allow');
        expect(st.Condition).toBeUndefined();
        for (const action of [st.Action].flat()) {
          resourcesByAction[action] = [...(resourcesByAction[action] ?? []), ...[st.Resource].flat().map((r) => render(r, adminStack.stackName))].sort();
        }
      }
      expect(resourcesByAction, fn.Properties!.Description).toEqual(expected);
      expect(JSON.parse(render(vars[ENV.gatewayUsagePlans], adminStack.stackName))).toEqual(plans);
      expect(render(vars[ENV.gatewayAuthorizerStages], adminStack.stackName).split(',').sort()).toEqual(stages);
    }
  });
});

describe("API Gateway's own answers in each area's error shape", () => {
  it.each([...areas.keys()])('%s: every gateway response type with its status, Retry-After, echoed correlation id and exact body', (area) => {
    const template = templateOf(area);
    const responses = Object.values(resourcesOfType(template, 'AWS::ApiGateway::GatewayResponse')).map((r) => r.Properties!);
    const keyClass = keyClassOfArea(area);
    const answers = gatewayAnswers(keyClass);
    expect(responses.map((r) => r.ResponseType).sort()).toEqual(Object.keys(answers).sort());
    for (const type of Object.keys(answers) as GatewayResponseType[]) {
      const answer = answers[type];
      const response = responses.find((r) => r.ResponseType === type)!;
      expect(response.StatusCode, type).toBe(answer.status === undefined ? undefined : String(answer.status));
      expect(response.ResponseTemplates).toEqual({ 'application/json': gatewayTemplate(area, answer) });
      expect(response.ResponseParameters['gatewayresponse.header.X-Correlation-ID']).toBe('method.request.header.X-Correlation-ID');
      expect(response.ResponseParameters['gatewayresponse.header.Content-Type']).toBe("'application/json'");
      expect(response.ResponseParameters['gatewayresponse.header.Retry-After']).toBe(
        answer.retryAfterSeconds === undefined ? undefined : `'${answer.retryAfterSeconds}'`,
      );
    }
    if (area === 'chat')
      expect(responses.find((r) => r.ResponseType === 'THROTTLED')!.ResponseTemplates['application/json']).toBe('{"error":"Rate limit exceeded"}');
    if (area === 'export') {
      expect(responses.find((r) => r.ResponseType === 'ACCESS_DENIED')!.ResponseTemplates['application/json']).toBe(
        '{"error":{"code":"$context.authorizer.errorCode","message":"$context.authorizer.errorMessage"}}',
      );
    }
  });

  it('answers a declared Content-Length over a route limit with 413 in WAF, before a function (whose 6 MB payload limit would make it a 502) is invoked', () => {
    for (const [area, stack] of areas) {
      const acl = Object.values(resourcesOfType(templates.get(stack.stackName)!, 'AWS::WAFv2::WebACL'))[0]!.Properties!;
      const rule = (acl.Rules as { Name: string }[]).find((r) => r.Name === 'BodyTooLarge');
      if (area !== 'chat') {
        expect(rule, area).toBeUndefined();
        continue;
      }
      expect(rule).toEqual({
        Name: 'BodyTooLarge',
        Priority: 2,
        Action: { Block: { CustomResponse: { ResponseCode: 413, CustomResponseBodyKey: 'bodyTooLarge' } } },
        Statement: {
          RegexMatchStatement: {
            FieldToMatch: { SingleHeader: { Name: 'content-length' } },
            RegexString: decimalAbove(MAX_CHAT_REQUEST_BYTES),
            TextTransformations: [{ Priority: 0, Type: 'NONE' }],
          },
        },
        VisibilityConfig: { CloudWatchMetricsEnabled: true, MetricName: 'BodyTooLarge', SampledRequestsEnabled: true },
      });
      // The handler's own 413 body, word for word (test/handlers/chat-oversize.test.ts).
      expect(JSON.parse(acl.CustomResponseBodies.bodyTooLarge.Content)).toEqual({
        error: `Request body too large: at most ${MAX_CHAT_REQUEST_BYTES} bytes (5 MiB)`,
      });
    }
  });

  it("answers WAF's per-IP block with 429 in the area's shape", () => {
    for (const [area, stack] of areas) {
      const acl = Object.values(resourcesOfType(templates.get(stack.stackName)!, 'AWS::WAFv2::WebACL'))[0]!.Properties!;
      const body = JSON.parse(acl.CustomResponseBodies.rateLimited.Content);
      // Areas B and C answer 429 as { error: string } (spec); the others as { error: { code, message } }.
      expect(body, area).toEqual(
        area === 'chat' || area === 'acp' ? { error: 'Rate limit exceeded' } : { error: { code: 'rate_limited', message: 'Rate limit exceeded' } },
      );
    }
    templateOf('export').hasResourceProperties('AWS::WAFv2::WebACL', {
      Rules: Match.arrayWith([Match.objectLike({ Name: 'RateLimitPerIp', Action: { Block: { CustomResponse: Match.objectLike({ ResponseCode: 429 }) } } })]),
    });
  });
});
