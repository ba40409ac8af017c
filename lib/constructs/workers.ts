/**
 * The non-HTTP entry points (functions/workers.ts): one function per queue consumer, fed by SQS with
 * partial batch failures, and one function per scheduled job, invoked by EventBridge Scheduler.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueDef, ScheduleDef } from '../../functions/kernel/route-vocabulary';
import type { QueueId } from '../../functions/workers';
import { AppFunction } from './app-function';
import type { FunctionContext } from './function-context';

export interface WorkersProps {
  readonly context: FunctionContext;
  readonly queues: readonly QueueDef<QueueId>[];
  readonly schedules: readonly ScheduleDef[];
  /** The SQS queue each QueueDef consumes, by its id. */
  readonly sourceQueues: Readonly<Record<QueueId, sqs.IQueue>>;
  /** Where undeliverable schedule invocations and failed job runs go. */
  readonly jobsDeadLetterQueue: sqs.IQueue;
}

export interface BuiltConsumer {
  readonly def: QueueDef<QueueId>;
  readonly fn: AppFunction;
}

export interface BuiltJob {
  readonly def: ScheduleDef;
  readonly fn: AppFunction;
  readonly schedule: scheduler.Schedule;
}

export class Workers extends Construct {
  public readonly consumers: readonly BuiltConsumer[];
  public readonly jobs: readonly BuiltJob[];

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    this.consumers = props.queues.map((def) => this.addConsumer(def, props));
    this.jobs = props.schedules.map((def) => this.addJob(def, props));
  }

  private addConsumer(def: QueueDef<QueueId>, props: WorkersProps): BuiltConsumer {
    const fn = new AppFunction(this, `${def.id}-consumer`, {
      context: props.context,
      handler: def.handler,
      grants: def.grants,
      timeoutSeconds: def.timeoutSeconds,
    });
    // Failed records are reported individually and retried until maxReceiveCount sends them to the
    // DLQ; nothing is dropped (docs/design.md §2).
    fn.function.addEventSource(
      new SqsEventSource(props.sourceQueues[def.id], {
        batchSize: def.batchSize,
        reportBatchItemFailures: true,
        ...(def.maxConcurrency !== undefined ? { maxConcurrency: def.maxConcurrency } : {}),
      }),
    );
    return { def, fn };
  }

  private addJob(def: ScheduleDef, props: WorkersProps): BuiltJob {
    const fn = new AppFunction(this, `${def.id}-job`, {
      context: props.context,
      handler: def.handler,
      grants: def.grants,
      timeoutSeconds: def.timeoutSeconds,
    });
    // Jobs are periodic and idempotent: the next tick is the retry, and Lambda's own async retries
    // would only overlap it. A failed run is kept in the DLQ, where its alarm fires.
    fn.function.configureAsyncInvoke({
      retryAttempts: 0,
      onFailure: new SqsDestination(props.jobsDeadLetterQueue),
    });

    const role = new iam.Role(this, `${def.id}-scheduler-role`, {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    });
    const schedule = new scheduler.Schedule(this, `${def.id}-schedule`, {
      description: `Runs functions/${def.handler}.handler.ts`,
      schedule: scheduler.ScheduleExpression.expression(def.expression),
      target: new LambdaInvoke(fn.function, {
        role,
        deadLetterQueue: props.jobsDeadLetterQueue,
        retryAttempts: 3,
        // A run that could not start within five minutes is superseded by the next tick.
        maxEventAge: Duration.minutes(5),
      }),
    });
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${logicalId(fn.function)}.Arn>:*]`,
      reason: 'CDK grantInvoke adds the qualified form (versions and aliases) of this one job function; the role can invoke nothing else.',
    });
    return { def, fn, schedule };
  }
}

function logicalId(fn: lambda.Function): string {
  const cfn = fn.node.defaultChild as lambda.CfnFunction;
  return Stack.of(fn).resolve(cfn.logicalId) as string;
}
