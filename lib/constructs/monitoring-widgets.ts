/**
 * The dashboard graphs of Monitoring (monitoring.ts): the API, the functions, each load-balanced
 * service, the queues and the table.
 */
import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { LoadBalancedService, Named } from './monitoring';

export const PERIOD = Duration.minutes(5);

export function apiWidgets(api: apigateway.RestApi): cloudwatch.IWidget[] {
  return [
    new cloudwatch.GraphWidget({
      title: 'API requests, 4xx, 5xx',
      left: [api.metricCount({ period: PERIOD, statistic: 'Sum', label: 'requests' })],
      right: [
        api.metricClientError({ period: PERIOD, statistic: 'Sum', label: '4xx' }),
        api.metricServerError({ period: PERIOD, statistic: 'Sum', label: '5xx' }),
      ],
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: 'API latency (ms)',
      left: ['p50', 'p90', 'p99'].map((statistic) => api.metricLatency({ period: PERIOD, statistic, label: `latency ${statistic}` })),
      right: [api.metricIntegrationLatency({ period: PERIOD, statistic: 'p99', label: 'integration p99' })],
      width: 12,
    }),
  ];
}

export function serviceWidgets({ name, resource }: Named<LoadBalancedService>): cloudwatch.IWidget[] {
  const { loadBalancer, targetGroup, service } = resource;
  return [
    new cloudwatch.GraphWidget({
      title: `${name}: requests, 4xx, 5xx`,
      left: [targetGroup.metrics.requestCount({ period: PERIOD, statistic: 'Sum', label: 'requests' })],
      right: [
        targetGroup.metrics.httpCodeTarget(elbv2.HttpCodeTarget.TARGET_4XX_COUNT, { period: PERIOD, statistic: 'Sum', label: '4xx' }),
        targetGroup.metrics.httpCodeTarget(elbv2.HttpCodeTarget.TARGET_5XX_COUNT, { period: PERIOD, statistic: 'Sum', label: '5xx' }),
        loadBalancer.metrics.httpCodeElb(elbv2.HttpCodeElb.ELB_5XX_COUNT, { period: PERIOD, statistic: 'Sum', label: 'balancer 5xx' }),
      ],
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: `${name}: response time (s)`,
      left: ['p50', 'p90', 'p99'].map((statistic) => targetGroup.metrics.targetResponseTime({ period: PERIOD, statistic, label: statistic })),
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: `${name}: task CPU and memory (%), healthy tasks`,
      left: [service.metricCpuUtilization({ period: PERIOD, label: 'CPU' }), service.metricMemoryUtilization({ period: PERIOD, label: 'memory' })],
      right: [targetGroup.metrics.healthyHostCount({ period: Duration.minutes(1), statistic: 'Minimum', label: 'healthy tasks' })],
      width: 24,
    }),
  ];
}

export function functionWidgets(functions: readonly Named<lambda.IFunction>[]): cloudwatch.IWidget[] {
  return [
    new cloudwatch.GraphWidget({
      title: 'Function errors',
      left: functions.map(({ name, resource }) => resource.metricErrors({ period: PERIOD, label: name })),
      width: 12,
      height: 8,
    }),
    new cloudwatch.GraphWidget({
      title: 'Function duration p99 (ms)',
      left: functions.map(({ name, resource }) => resource.metricDuration({ period: PERIOD, statistic: 'p99', label: name })),
      width: 12,
      height: 8,
    }),
  ];
}

export function queueWidgets(queues: readonly Named<sqs.IQueue>[], deadLetterQueues: readonly Named<sqs.IQueue>[]): cloudwatch.IWidget[] {
  return [
    new cloudwatch.GraphWidget({
      title: 'Queue depth and oldest message age (s)',
      left: queues.map(({ name, resource }) => resource.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), label: `${name} visible` })),
      right: queues.map(({ name, resource }) => resource.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), label: `${name} oldest` })),
      width: 12,
    }),
    new cloudwatch.GraphWidget({
      title: 'Dead-letter queue depth',
      left: deadLetterQueues.map(({ name, resource }) => resource.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), label: name })),
      width: 12,
    }),
  ];
}

export function tableWidget(table: dynamodb.ITableV2, indexNames: readonly string[]): cloudwatch.IWidget {
  const throttles = (metricName: string, index?: string): cloudwatch.Metric =>
    new cloudwatch.Metric({
      namespace: 'AWS/DynamoDB',
      metricName,
      dimensionsMap: index ? { TableName: table.tableName, GlobalSecondaryIndexName: index } : { TableName: table.tableName },
      statistic: 'Sum',
      period: PERIOD,
      label: `${index ?? 'table'} ${metricName}`,
    });
  return new cloudwatch.GraphWidget({
    title: 'DynamoDB throttles (table and each GSI)',
    // A GSI keyed by org throttles first when one org grows hot (docs/adr/0007-scale-limits.md).
    left: [undefined, ...indexNames].flatMap((index) => [throttles('ReadThrottleEvents', index), throttles('WriteThrottleEvents', index)]),
    width: 24,
  });
}
