import { existsSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { ENV, GRANT_SCOPED_ENV } from '../../functions/kernel/env';
import { ROUTES as ALL_ROUTES } from '../../functions/routes';

/** The routes API Gateway serves (the upload service's are in test/infra/uploads.test.ts). */
const ROUTES = ALL_ROUTES.filter((r) => (r.origin ?? 'api') === 'api');
import { QUEUES, SCHEDULES } from '../../functions/workers';
import { handlerEntry, functionDescription } from '../../lib/constructs/app-function';
import type { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import { importedId, platformFunctions, refId, resourcePaths, resourcesOfType, synthPlatform } from './platform-fixture';

const { apiTemplate, dataTemplate, data, areas, templates } = synthPlatform('prod');
const functions = platformFunctions(apiTemplate);
const methods = Object.values(resourcesOfType(apiTemplate, 'AWS::ApiGateway::Method'));
const paths = resourcePaths(apiTemplate);

/** The function whose description names this entry module (AppFunction writes `<kind>/<handler>`). */
function functionFor(description: string) {
  const found = Object.entries(functions).filter(([, fn]) => fn.Properties?.Description === description);
  expect(found, `one function for ${description}`).toHaveLength(1);
  const [id, fn] = found[0]!;
  return { id, props: fn.Properties! };
}

function methodFor(route: (typeof ROUTES)[number]) {
  const found = methods.filter((m) => m.Properties?.HttpMethod === route.method && paths.get(refId(m.Properties.ResourceId)!) === route.path);
  expect(found, `${route.method} ${route.path}`).toHaveLength(1);
  return found[0]!.Properties!;
}

describe('every Lambda entry module exists', () => {
  const entries = [
    ...ROUTES.map((r) => handlerEntry(r.handler)),
    ...QUEUES.map((q) => handlerEntry(q.handler)),
    ...SCHEDULES.map((s) => handlerEntry(s.handler)),
  ];
  it.each(entries)('%s', (entry) => {
    expect(existsSync(entry)).toBe(true);
  });
});

describe('REST API from the route table', () => {
  it('has exactly one method per route', () => {
    expect(methods).toHaveLength(ROUTES.length);
  });

  it.each(ROUTES.map((r) => [r.id, r] as const))('%s: method, path, authorization, own function', (_, route) => {
    const method = methodFor(route);
    const keyClass = route.auth === 'orgKey' || route.auth === 'chatKey' || route.auth === 'acpKey';
    expect(method.AuthorizationType).toBe(route.auth === 'iam' ? 'AWS_IAM' : keyClass ? 'CUSTOM' : 'NONE');
    expect(method.ApiKeyRequired ?? false).toBe(keyClass);
    expect(method.Integration.Type).toBe('AWS_PROXY');
    const fn = functionFor(functionDescription(route.handler));
    expect(JSON.stringify(method.Integration.Uri)).toContain(`"${fn.id}"`);
    expect(fn.props.Timeout).toBe(route.timeoutSeconds ?? 10);
  });

  it('streams the routes marked stream (Lambda response streaming), and only those', () => {
    for (const route of ROUTES) {
      const method = methodFor(route);
      if (route.stream) {
        expect(method.Integration.ResponseTransferMode).toBe('STREAM');
        expect(JSON.stringify(method.Integration.Uri)).toContain('/response-streaming-invocations');
      } else {
        expect(method.Integration.ResponseTransferMode).toBeUndefined();
        expect(JSON.stringify(method.Integration.Uri)).toContain('2015-03-31/functions/');
      }
    }
    expect(ROUTES.filter((r) => r.stream).map((r) => r.id)).toEqual(['chatCompletionsCreate', 'responsesCreate', 'responsesGet']);
  });

  it('gives every route a function of its own', () => {
    const targets = methods.map((m) => JSON.stringify(m.Properties!.Integration.Uri));
    expect(new Set(targets).size).toBe(ROUTES.length);
  });

  it('keeps every admin path behind IAM', () => {
    const admin = methods.filter((m) => paths.get(refId(m.Properties!.ResourceId)!)!.startsWith('/admin/'));
    expect(admin.length).toBeGreaterThan(0);
    for (const m of admin) expect(m.Properties!.AuthorizationType).toBe('AWS_IAM');
  });

  it('logs access as JSON, traces, and throttles every area stage', () => {
    for (const stack of areas.values()) {
      const template = templates.get(stack.stackName)!;
      template.resourceCountIs('AWS::ApiGateway::Stage', 1);
      template.hasResourceProperties('AWS::ApiGateway::Stage', {
        TracingEnabled: true,
        AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('"requestId"') },
        MethodSettings: Match.arrayWith([Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: Match.anyValue() })]),
      });
    }
  });

  it('puts a WAF web ACL with managed rules and a per-IP rate rule on every stage', () => {
    for (const [area, stack] of areas) {
      const template = templates.get(stack.stackName)!;
      const stageId = Object.keys(resourcesOfType(template, 'AWS::ApiGateway::Stage'))[0]!;
      const front = area !== 'admin';
      template.hasResourceProperties('AWS::WAFv2::WebACL', {
        Scope: 'REGIONAL',
        Rules: Match.arrayWith([
          Match.objectLike({ Statement: { RateBasedStatement: Match.objectLike({ AggregateKeyType: front ? 'FORWARDED_IP' : 'IP' }) } }),
          Match.objectLike({
            Statement: { ManagedRuleGroupStatement: Match.objectLike({ Name: 'AWSManagedRulesCommonRuleSet' }) },
          }),
        ]),
      });
      template.hasResource('AWS::WAFv2::WebACLAssociation', { DependsOn: Match.arrayWith([stageId]) });
    }
  });
});

describe('function defaults', () => {
  const all = Object.values(functions).map((f) => f.Properties!);

  it('builds one function per route, key authorizer, queue consumer and scheduled job', () => {
    const keyClasses = new Set(ALL_ROUTES.map((r) => r.auth).filter((a) => a === 'orgKey' || a === 'chatKey' || a === 'acpKey'));
    expect(all).toHaveLength(ROUTES.length + keyClasses.size + QUEUES.length + SCHEDULES.length);
  });

  it.each(all.map((f) => [f.Description as string, f] as const))('%s: nodejs22.x, arm64, active tracing, env', (_, fn) => {
    expect(fn.Runtime).toBe('nodejs22.x');
    expect(fn.Architectures).toEqual(['arm64']);
    expect(fn.TracingConfig).toEqual({ Mode: 'Active' });
    expect(fn.LoggingConfig.LogGroup).toEqual({ Ref: expect.any(String) });
    const names = Object.keys(fn.Environment.Variables);
    // The OpenAI-compatible endpoint and the public base URL are optional per stage; the OpenAI key is never put in the environment.
    const required = Object.values(ENV).filter(
      (n) => n !== ENV.openAiBaseUrl && n !== ENV.openAiApiKey && n !== ENV.publicBaseUrl && !GRANT_SCOPED_ENV.includes(n),
    );
    expect(names).toEqual(expect.arrayContaining([...required, 'NODE_OPTIONS']));
    expect(names).not.toContain(ENV.openAiApiKey);
    expect(fn.Environment.Variables[ENV.bedrockEnabled]).toBe('true');
    expect(fn.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
  });

  it('gives each log group a retention', () => {
    for (const group of Object.values(resourcesOfType(apiTemplate, 'AWS::Logs::LogGroup'))) {
      expect(group.Properties?.RetentionInDays).toBeGreaterThan(0);
    }
  });
});

describe('grants become IAM permissions', () => {
  const policies = Object.values(resourcesOfType(apiTemplate, 'AWS::IAM::Policy'));

  function actionsOf(description: string): Set<string> {
    const roleId = refId(functionFor(description).props.Role);
    const actions = policies
      .filter((p) => (p.Properties!.Roles as unknown[]).some((r) => refId(r) === roleId))
      .flatMap((p) => p.Properties!.PolicyDocument.Statement as { Action: string | string[] }[])
      .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
    return new Set(actions);
  }

  it.each(ROUTES.map((r) => [r.id, r] as const))('%s gets exactly its grants', (_, route) => {
    const actions = actionsOf(functionDescription(route.handler));
    expect(actions.has('dynamodb:Query')).toBe(route.grants.includes('table:read'));
    expect(actions.has('dynamodb:PutItem')).toBe(route.grants.includes('table:write'));
    expect(actions.has('sqs:SendMessage')).toBe(
      route.grants.some((g) => g === 'jobs:send' || g === 'webhooks:send' || g === 'exports:send' || g === 'order-events:send'),
    );
    expect(actions.has('s3:GetObject')).toBe(route.grants.includes('bucket:read'));
    expect(actions.has('s3:PutObject')).toBe(route.grants.includes('bucket:write'));
    expect(actions.has('bedrock:InvokeModelWithResponseStream')).toBe(route.grants.includes('model:invoke'));
    expect(actions.has('kms:Encrypt')).toBe(route.grants.includes('secrets:seal') || route.grants.includes('sessions:seal'));
    expect(actions.has('kms:Decrypt')).toBe(route.grants.includes('secrets:open') || route.grants.includes('sessions:open'));
    expect(actions.has('secretsmanager:GetSecretValue')).toBe(route.grants.includes('payments:charge') || route.grants.includes('identity:read'));
    expect([...actions].some((a) => a.endsWith('*'))).toBe(false);
  });
});

describe('area C: the payment provider key', () => {
  const policies = Object.values(resourcesOfType(apiTemplate, 'AWS::IAM::Policy'));
  const secrets = resourcesOfType(dataTemplate, 'AWS::SecretsManager::Secret');
  const [secretId, secret] = Object.entries(secrets).find(([, r]) => String(r.Properties!.Name).endsWith('/stripe-api-key'))!;

  it('is a secret of the stage created with the placeholder the adapter refuses to charge with', () => {
    expect(secret.Properties!.Name).toBe('platform-prod/stripe-api-key');
    expect(secret.Properties!.SecretString).toBe('not-configured');
    expect(secret.Properties!.GenerateSecretString).toBeUndefined();
  });

  it.each([['http/acp-checkout-complete'], ['workers/checkout-recovery'], ['http/admin-job-run']])(
    '%s may read exactly that secret, and knows its ARN',
    (description) => {
      const fn = functionFor(description);
      const roleId = refId(fn.props.Role);
      const statements = policies
        .filter((p) => (p.Properties!.Roles as unknown[]).some((r) => refId(r) === roleId))
        .flatMap((p) => p.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        .filter((st) => [st.Action].flat().some((a) => a.startsWith('secretsmanager:')));
      expect(statements).toHaveLength(1);
      expect(statements[0]!.Action).toBe('secretsmanager:GetSecretValue');
      expect(importedId(statements[0]!.Resource, dataTemplate)).toBe(secretId);
      expect(importedId(fn.props.Environment.Variables[ENV.paymentSecretArn], dataTemplate)).toBe(secretId);
    },
  );

  it('no other checkout function can read it', () => {
    for (const handler of ['acp-checkout-create', 'acp-checkout-get', 'acp-checkout-update', 'acp-checkout-cancel']) {
      expect(functionFor(`http/${handler}`).props.Environment.Variables[ENV.paymentSecretArn], handler).toBeUndefined();
    }
  });
});

describe('area D: webhook secrets and the webhooks queue', () => {
  const policies = Object.values(resourcesOfType(apiTemplate, 'AWS::IAM::Policy'));
  const keyId = Object.keys(resourcesOfType(dataTemplate, 'AWS::KMS::Key'))[0]!;

  function statementsOf(description: string) {
    const fn = functionFor(description);
    const roleId = refId(fn.props.Role);
    const statements = policies
      .filter((p) => (p.Properties!.Roles as unknown[]).some((r) => refId(r) === roleId))
      .flatMap((p) => p.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown; Condition?: unknown }[]);
    return { fn, statements };
  }

  it.each([
    ['http/release-notes-subscription-create', 'kms:Encrypt'],
    ['workers/webhooks-worker', 'kms:Decrypt'],
  ])('%s may %s with the webhook-secrets key only, bound to its purpose, and knows the key ARN', (description, action) => {
    const { fn, statements } = statementsOf(description);
    const kms = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('kms:')));
    expect(kms).toHaveLength(1);
    expect(kms[0]!.Action).toBe(action);
    expect(importedId(kms[0]!.Resource, dataTemplate)).toBe(keyId);
    expect(kms[0]!.Condition).toEqual({ StringEquals: { 'kms:EncryptionContext:purpose': 'webhook-signing-secret' } });
    expect(importedId(fn.props.Environment.Variables[ENV.webhookSecretsKeyArn], dataTemplate)).toBe(keyId);
  });

  it.each(['http/console-session', 'http/console-keys-list', 'http/console-callback'])(
    '%s seals and opens console sessions only: both KMS actions bound to the session purpose, never the webhook secrets’',
    (description) => {
      const { statements } = statementsOf(description);
      const kms = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('kms:')));
      expect(kms.length).toBeGreaterThan(0);
      for (const statement of kms) {
        expect(importedId(statement.Resource, dataTemplate)).toBe(keyId);
        expect(statement.Condition).toEqual({ StringEquals: { 'kms:EncryptionContext:purpose': 'console-session-tokens' } });
      }
    },
  );

  it('gives the KMS key to no other function', () => {
    const holders = Object.values(functions).filter((f) => ENV.webhookSecretsKeyArn in (f.Properties!.Environment.Variables as object));
    // Every console API function opens its caller's sealed session (docs/adr/0045).
    const consoleApi = ALL_ROUTES.filter((r) => r.auth === 'consoleSession').map((r) => functionDescription(r.handler));
    expect(consoleApi.length).toBeGreaterThan(10);
    expect(holders.map((f) => f.Properties!.Description).sort()).toEqual(
      [
        'http/admin-order-webhook-put',
        'http/console-callback',
        'http/console-logout',
        'http/console-session',
        'http/release-notes-subscription-create',
        'workers/order-events-worker',
        'workers/webhooks-worker',
        ...consoleApi,
      ].sort(),
    );
  });

  it('runs a webhooks consumer on the webhooks queue that may send to it (retries, fan-out continuation)', () => {
    const { fn, statements } = statementsOf('workers/webhooks-worker');
    const send = statements.find((s) => [s.Action].flat().includes('sqs:SendMessage'));
    const webhooksQueueId = data.getLogicalId(data.webhooks.queue.node.defaultChild as CfnQueue);
    expect(importedId(send?.Resource, dataTemplate)).toBe(webhooksQueueId);
    expect(fn.props.Environment.Variables[ENV.webhooksQueueUrl]).toBeDefined();
    const mappings = Object.values(resourcesOfType(apiTemplate, 'AWS::Lambda::EventSourceMapping')).map((m) => m.Properties!);
    const mine = mappings.filter((m) => refId(m.FunctionName) === fn.id);
    expect(mine).toHaveLength(1);
    expect(importedId(mine[0]!.EventSourceArn, dataTemplate)).toBe(webhooksQueueId);
    expect(mine[0]!.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
  });

  it('alarms on the webhooks dead-letter queue', () => {
    const dlqId = data.getLogicalId(data.webhooks.deadLetterQueue.node.defaultChild as CfnQueue);
    const alarms = Object.values(resourcesOfType(apiTemplate, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties!);
    const alarm = alarms.find(
      (a) =>
        a.MetricName === 'ApproximateNumberOfMessagesVisible' && a.Dimensions?.some((d: { Value: unknown }) => importedId(d.Value, dataTemplate) === dlqId),
    );
    expect(alarm?.Threshold).toBe(0);
  });

  it('serves every area D route without IAM (public or signing-secret bearer, checked in the function)', () => {
    for (const route of ROUTES.filter((r) => r.area === 'releaseNotes')) {
      expect(route.rateLimit).toBe('releaseNotesIp');
      expect(methodFor(route).AuthorizationType).toBe('NONE');
    }
  });
});

describe('area C: the order-events queue', () => {
  const policies = Object.values(resourcesOfType(apiTemplate, 'AWS::IAM::Policy'));
  const keyId = Object.keys(resourcesOfType(dataTemplate, 'AWS::KMS::Key'))[0]!;
  const queueId = data.getLogicalId(data.orderEvents.queue.node.defaultChild as CfnQueue);
  const dlqId = data.getLogicalId(data.orderEvents.deadLetterQueue.node.defaultChild as CfnQueue);

  function statementsOf(description: string) {
    const fn = functionFor(description);
    const roleId = refId(fn.props.Role);
    const statements = policies
      .filter((p) => (p.Properties!.Roles as unknown[]).some((r) => refId(r) === roleId))
      .flatMap((p) => p.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown; Condition?: unknown }[]);
    return { fn, statements };
  }

  /** Every function the tables grant `order-events:send`: the routes, the consumers and the jobs. */
  const senders = [...ROUTES, ...QUEUES, ...SCHEDULES].filter((d) => d.grants.includes('order-events:send')).map((d) => functionDescription(d.handler));

  it('is granted to the complete, the checkout recovery (its job and a run now) and the worker itself', () => {
    expect(senders).toEqual(
      expect.arrayContaining(['http/acp-checkout-complete', 'workers/checkout-recovery', 'http/admin-job-run', 'workers/order-events-worker']),
    );
  });

  it.each(senders.map((d) => [d]))('%s may send to the order-events queue only, and knows its URL', (description) => {
    const { fn, statements } = statementsOf(description);
    const sends = statements.filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
    expect(sends.flatMap((s) => [s.Resource].flat().map((r) => importedId(r, dataTemplate)))).toContain(queueId);
    expect(importedId(fn.props.Environment.Variables[ENV.orderEventsQueueUrl], dataTemplate)).toBe(queueId);
  });

  it('gives the queue URL to no other function', () => {
    const holders = Object.values(functions).filter((f) => ENV.orderEventsQueueUrl in (f.Properties!.Environment.Variables as object));
    expect(holders.map((f) => f.Properties!.Description).sort()).toEqual([...senders].sort());
    for (const handler of ['acp-checkout-create', 'acp-checkout-get', 'acp-checkout-update', 'acp-checkout-cancel']) {
      expect(functionFor(`http/${handler}`).props.Environment.Variables[ENV.orderEventsQueueUrl], handler).toBeUndefined();
    }
  });

  it('runs the worker on the order-events queue with partial batch failures; it may decrypt webhook secrets, bound to their purpose', () => {
    const { fn, statements } = statementsOf('workers/order-events-worker');
    const mappings = Object.values(resourcesOfType(apiTemplate, 'AWS::Lambda::EventSourceMapping')).map((m) => m.Properties!);
    const mine = mappings.filter((m) => refId(m.FunctionName) === fn.id);
    expect(mine).toHaveLength(1);
    expect(importedId(mine[0]!.EventSourceArn, dataTemplate)).toBe(queueId);
    expect(mine[0]!.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    const kms = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('kms:')));
    expect(kms).toHaveLength(1);
    expect(kms[0]!.Action).toBe('kms:Decrypt');
    expect(importedId(kms[0]!.Resource, dataTemplate)).toBe(keyId);
    expect(kms[0]!.Condition).toEqual({ StringEquals: { 'kms:EncryptionContext:purpose': 'webhook-signing-secret' } });
    // It never charges.
    expect(statements.some((s) => [s.Action].flat().some((a) => a.startsWith('secretsmanager:')))).toBe(false);
  });

  it('has a dead-letter queue after maxReceiveCount receives, a visibility above the worker timeout, and an alarm on the DLQ', () => {
    const queue = resourcesOfType(dataTemplate, 'AWS::SQS::Queue')[queueId]!.Properties!;
    const def = QUEUES.find((q) => q.id === 'order-events')!;
    expect(refId(queue.RedrivePolicy.deadLetterTargetArn)).toBe(dlqId);
    expect(queue.RedrivePolicy.maxReceiveCount).toBe(def.maxReceiveCount);
    expect(queue.VisibilityTimeout).toBeGreaterThan(def.timeoutSeconds);
    const alarms = Object.values(resourcesOfType(apiTemplate, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties!);
    const alarm = alarms.find(
      (a) =>
        a.MetricName === 'ApproximateNumberOfMessagesVisible' && a.Dimensions?.some((d: { Value: unknown }) => importedId(d.Value, dataTemplate) === dlqId),
    );
    expect(alarm?.Threshold).toBe(0);
    expect(alarm?.ComparisonOperator).toBe('GreaterThanThreshold');
  });
});
