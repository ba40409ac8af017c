/**
 * Alarms and the dashboard (docs/design.md §7): an alarm on every dead-letter queue, on API 5xx, on each
 * function's errors and on a load-balanced service's 5xx and healthy tasks, all sent to one encrypted
 * SNS topic.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as ecs from 'aws-cdk-lib/aws-ecs';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { StageConfig } from '../stage-config';
import { apiWidgets, functionWidgets, PERIOD, queueWidgets, serviceWidgets, tableWidget } from './monitoring-widgets';

/** The most metrics one alarm's math expression may read. */
const FUNCTIONS_PER_ALARM = 10;

/** Something worth a line on a graph, with the name it is shown and alarmed under. */
export interface Named<T> {
  readonly name: string;
  readonly resource: T;
}

/** A container service behind an Application Load Balancer (the upload service, docs/adr/0016). */
export interface LoadBalancedService {
  readonly loadBalancer: elbv2.ApplicationLoadBalancer;
  readonly targetGroup: elbv2.ApplicationTargetGroup;
  readonly service: ecs.BaseService;
}

export interface MonitoringProps {
  /** The stage's name, whether its data outlives the stack, and the address subscribed to the alarm topic when given. */
  readonly config: Pick<StageConfig, 'stage' | 'retainData' | 'alarmEmail'>;
  /** What this stack's alarms and dashboard are of (an area, or the workers). */
  readonly name: string;
  readonly api?: apigateway.RestApi;
  /** Every function of the stack; each gets an error alarm. */
  readonly functions: readonly Named<lambda.IFunction>[];
  /** Alarmed on 5xx (the service's and the balancer's own) and on having no healthy task. */
  readonly services?: readonly Named<LoadBalancedService>[];
  /** Work queues: depth and age of the oldest message on the dashboard. */
  readonly queues?: readonly Named<sqs.IQueue>[];
  /** Every dead-letter queue; each gets an alarm as soon as it holds a message. */
  readonly deadLetterQueues?: readonly Named<sqs.IQueue>[];
  readonly table?: dynamodb.ITableV2;
  readonly indexNames?: readonly string[];
}

export class Monitoring extends Construct {
  public readonly alarmTopic: sns.Topic;
  public readonly alarms: cloudwatch.Alarm[] = [];
  public readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);

    // A customer-managed key: CloudWatch alarms cannot publish to a topic encrypted with the AWS
    // managed aws/sns key, whose policy cannot be extended to the CloudWatch service principal.
    const topicKey = new kms.Key(this, 'AlarmTopicKey', {
      description: `Encrypts the platform-${props.config.stage}-${props.name} alarm topic`,
      enableKeyRotation: true,
      removalPolicy: props.config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    topicKey.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.alarmTopic = new sns.Topic(this, 'AlarmTopic', {
      displayName: `platform-${props.config.stage} ${props.name} alarms`,
      masterKey: topicKey,
      enforceSSL: true,
    });
    if (props.config.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(props.config.alarmEmail));

    for (const { name, resource } of props.deadLetterQueues ?? []) {
      this.alarm(`${name}-dlq-not-empty`, {
        alarmDescription: `Dead-letter queue ${name} holds messages: a record failed every attempt`,
        metric: resource.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      });
    }
    if (props.api) {
      this.alarm('api-5xx', {
        alarmDescription: `The ${props.name} API answered 5xx (unhandled errors, timeouts, integration failures)`,
        metric: props.api.metricServerError({ period: PERIOD, statistic: 'Sum' }),
        threshold: 5,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      });
    }
    // Handlers map expected failures to responses, so any Lambda error is a crash or a timeout. One
    // alarm watches up to ten functions (the most a metric-math alarm may read): a stack of fifty
    // console routes stays well inside CloudFormation's resource limit; the dashboard names the function.
    for (let i = 0; i < props.functions.length; i += FUNCTIONS_PER_ALARM) {
      const group = props.functions.slice(i, i + FUNCTIONS_PER_ALARM);
      const metrics = group.map(({ resource }) => resource.metricErrors({ period: PERIOD, statistic: 'Sum' }));
      const names = group.map(({ name }) => name);
      this.alarm(group.length === 1 ? `${names[0]}-errors` : `function-errors-${i / FUNCTIONS_PER_ALARM + 1}`, {
        alarmDescription:
          group.length === 1 ? `Function ${names[0]} failed (crash or timeout)` : `A function failed (crash or timeout): one of ${names.join(', ')}`,
        metric:
          group.length === 1
            ? metrics[0]!
            : new cloudwatch.MathExpression({
                expression: metrics.map((_, k) => `e${k}`).join(' + '),
                usingMetrics: Object.fromEntries(metrics.map((m, k) => [`e${k}`, m])),
                period: PERIOD,
                label: 'Errors',
              }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      });
    }
    for (const { name, resource } of props.services ?? []) {
      this.alarm(`${name}-5xx`, {
        alarmDescription: `The ${name} service or its load balancer answered 5xx (crashes, no healthy task, timeouts)`,
        metric: serviceErrors(resource),
        threshold: 5,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      });
      this.alarm(`${name}-no-healthy-task`, {
        alarmDescription: `The ${name} service has had no healthy task for 3 minutes: every request fails`,
        metric: resource.targetGroup.metrics.healthyHostCount({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
        evaluationPeriods: 3,
        // The balancer reports the count every minute; no data means nothing is registered at all.
        treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      });
    }

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `platform-${props.config.stage}-${props.name}`,
      defaultInterval: Duration.hours(3),
    });
    if (props.api) this.dashboard.addWidgets(...apiWidgets(props.api));
    if (props.functions.length) this.dashboard.addWidgets(...functionWidgets(props.functions));
    for (const service of props.services ?? []) this.dashboard.addWidgets(...serviceWidgets(service));
    if (props.queues || props.deadLetterQueues) this.dashboard.addWidgets(...queueWidgets(props.queues ?? [], props.deadLetterQueues ?? []));
    if (props.table) this.dashboard.addWidgets(tableWidget(props.table, props.indexNames ?? []));
  }

  private alarm(id: string, props: Omit<cloudwatch.AlarmProps, 'evaluationPeriods'> & { readonly evaluationPeriods?: number }): void {
    const alarm = new cloudwatch.Alarm(this, id, {
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      ...props,
    });
    alarm.addAlarmAction(new SnsAction(this.alarmTopic));
    alarm.addOkAction(new SnsAction(this.alarmTopic));
    this.alarms.push(alarm);
  }
}

/** 5xx answered by the service's tasks plus those the balancer answers itself (502, 503, 504). */
function serviceErrors({ loadBalancer, targetGroup }: LoadBalancedService): cloudwatch.IMetric {
  return new cloudwatch.MathExpression({
    expression: 'FILL(target, 0) + FILL(balancer, 0)',
    usingMetrics: {
      target: targetGroup.metrics.httpCodeTarget(elbv2.HttpCodeTarget.TARGET_5XX_COUNT, { period: PERIOD, statistic: 'Sum' }),
      balancer: loadBalancer.metrics.httpCodeElb(elbv2.HttpCodeElb.ELB_5XX_COUNT, { period: PERIOD, statistic: 'Sum' }),
    },
    period: PERIOD,
    label: '5xx',
  });
}
