import { describe, it, expect } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { functionDescription } from '../../lib/constructs/app-function';
import type { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import { QUEUES, SCHEDULES } from '../../functions/workers';
import { importedId, platformFunctions, refId, resourcesOfType, synthPlatform } from './platform-fixture';

const { data, dataTemplate, apiTemplate } = synthPlatform('prod');
const queues = resourcesOfType(dataTemplate, 'AWS::SQS::Queue');
const functions = platformFunctions(apiTemplate);
const alarms = Object.values(resourcesOfType(apiTemplate, 'AWS::CloudWatch::Alarm')).map((a) => a.Properties!);

function functionIdFor(description: string): string {
  const ids = Object.keys(functions).filter((id) => functions[id]!.Properties?.Description === description);
  expect(ids, description).toHaveLength(1);
  return ids[0]!;
}

/** Every place a queue is named as a dead-letter target: redrive policies, scheduler and async invoke. */
function deadLetterQueueIds(): Set<string> {
  const ids = new Set<string>();
  for (const queue of Object.values(queues)) {
    const target = refId(queue.Properties?.RedrivePolicy?.deadLetterTargetArn);
    if (target) ids.add(target);
  }
  for (const schedule of Object.values(resourcesOfType(apiTemplate, 'AWS::Scheduler::Schedule'))) {
    ids.add(importedId(schedule.Properties!.Target.DeadLetterConfig.Arn, dataTemplate)!);
  }
  for (const config of Object.values(resourcesOfType(apiTemplate, 'AWS::Lambda::EventInvokeConfig'))) {
    ids.add(importedId(config.Properties!.DestinationConfig.OnFailure.Destination, dataTemplate)!);
  }
  return ids;
}

describe('queues and dead-letter queues', () => {
  const dlqs = deadLetterQueueIds();

  it('sends every queue that is not itself a DLQ to a DLQ', () => {
    const workQueues = Object.keys(queues).filter((id) => !dlqs.has(id));
    expect(workQueues.length).toBeGreaterThanOrEqual(2);
    for (const id of workQueues) {
      const redrive = queues[id]!.Properties?.RedrivePolicy;
      expect(redrive, id).toBeDefined();
      expect(dlqs.has(refId(redrive.deadLetterTargetArn)!)).toBe(true);
    }
  });

  it('alarms on every DLQ as soon as it holds a message', () => {
    for (const dlq of dlqs) {
      const alarm = alarms.find(
        (a) =>
          a.MetricName === 'ApproximateNumberOfMessagesVisible' && a.Dimensions?.some((d: { Value: unknown }) => importedId(d.Value, dataTemplate) === dlq),
      );
      expect(alarm, `alarm on ${dlq}`).toBeDefined();
      expect(alarm!.Threshold).toBe(0);
      expect(alarm!.ComparisonOperator).toBe('GreaterThanThreshold');
      expect(alarm!.AlarmActions).toHaveLength(1);
    }
  });

  it.each(QUEUES.map((q) => [q.id, q] as const))('%s: maxReceiveCount and visibility >= 6x the consumer timeout', (_, def) => {
    const pair = {
      jobs: data.jobs,
      webhooks: data.webhooks,
      ocr: data.ocrQueue,
      exports: data.exports,
      responses: data.responses,
      'order-events': data.orderEvents,
    }[def.id];
    const queueId = data.getLogicalId(pair.queue.node.defaultChild as CfnQueue);
    const queue = queues[queueId]!.Properties!;
    const consumer = functions[functionIdFor(functionDescription(def.handler))]!.Properties!;
    expect(consumer.Timeout).toBe(def.timeoutSeconds);
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * consumer.Timeout);
    expect(queue.RedrivePolicy.maxReceiveCount).toBe(def.maxReceiveCount);
  });

  it.each(QUEUES.map((q) => [q.id, q] as const))('%s: consumed in batches with partial batch failures', (_, def) => {
    apiTemplate.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionIdFor(functionDescription(def.handler)) },
      BatchSize: def.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: def.maxConcurrency !== undefined ? { MaximumConcurrency: def.maxConcurrency } : Match.absent(),
    });
  });
});

describe('scheduled jobs', () => {
  it('has exactly one schedule per SCHEDULES entry', () => {
    expect(Object.keys(resourcesOfType(apiTemplate, 'AWS::Scheduler::Schedule'))).toHaveLength(SCHEDULES.length);
  });

  it.each(SCHEDULES.map((s) => [s.id, s] as const))('%s: its expression, its function, a DLQ and a retry policy', (_, def) => {
    const fnId = functionIdFor(functionDescription(def.handler));
    expect(functions[fnId]!.Properties!.Timeout).toBe(def.timeoutSeconds);
    apiTemplate.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: def.expression,
      State: 'ENABLED',
      Target: {
        Arn: { 'Fn::GetAtt': [fnId, 'Arn'] },
        DeadLetterConfig: { Arn: Match.anyValue() },
        RetryPolicy: { MaximumRetryAttempts: Match.anyValue(), MaximumEventAgeInSeconds: Match.anyValue() },
      },
    });
    apiTemplate.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: fnId },
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
    });
  });
});

const resourceCount = (type: string) => Object.keys(apiTemplate.findResources(type)).length;

describe('operations', () => {
  it('alarms on every area API 5xx and on every function error', () => {
    expect(alarms.filter((a) => a.Namespace === 'AWS/ApiGateway' && a.MetricName === '5XXError')).toHaveLength(resourceCount('AWS::ApiGateway::RestApi'));
    // An alarm watches one function's Errors, or up to ten functions' in a sum.
    const errorMetricsOf = (a: Record<string, any>): Record<string, any>[] =>
      a.MetricName === 'Errors'
        ? [a]
        : ((a.Metrics ?? []) as Record<string, any>[]).flatMap((m) => (m.MetricStat?.Metric?.MetricName === 'Errors' ? [m.MetricStat.Metric] : []));
    for (const fnId of Object.keys(functions)) {
      const alarm = alarms.find((a) => errorMetricsOf(a).some((m) => m.Dimensions?.some((d: { Value: unknown }) => refId(d.Value) === fnId)));
      expect(alarm, `error alarm for ${fnId}`).toBeDefined();
    }
    for (const alarm of alarms) expect(errorMetricsOf(alarm).length).toBeLessThanOrEqual(10);
  });

  it('sends alarms to an encrypted topic that requires TLS, and has a dashboard in every stack with functions or a service', () => {
    // One topic per stack with functions or a service (each area, the workers, the upload service),
    // and every alarm notifies a topic of its own stack (a Ref, never an import): no alarm reaches
    // across stacks.
    const monitored = resourceCount('AWS::ApiGateway::RestApi') + 1 + resourceCount('AWS::ECS::Service');
    expect(resourceCount('AWS::ECS::Service')).toBe(1);
    const topics = Object.entries(resourcesOfType(apiTemplate, 'AWS::SNS::Topic'));
    expect(topics).toHaveLength(monitored);
    for (const [id, topic] of topics) {
      expect(topic.Properties?.KmsMasterKeyId, id).toBeDefined();
      apiTemplate.hasResourceProperties('AWS::SNS::TopicPolicy', {
        Topics: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
        },
      });
    }
    const topicIds = new Set(topics.map(([id]) => id));
    for (const alarm of alarms) {
      expect(
        alarm.AlarmActions.map((a: unknown) => topicIds.has(refId(a) ?? '')),
        alarm.AlarmDescription,
      ).toEqual([true]);
    }
    // One per area stack, the workers and the upload service: no dashboard reaches across stacks (no deadly embrace).
    apiTemplate.resourceCountIs('AWS::CloudWatch::Dashboard', monitored);
  });
});
