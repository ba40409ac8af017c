/**
 * The non-HTTP functions (functions/workers.ts): queue consumers and scheduled jobs, with the alarms on
 * every queue's dead-letter queue and the table's throttles. Holds no data.
 */
import type { StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { TABLE_DESIGN } from '../functions/kernel/adapters/table-design';
import { QUEUES, SCHEDULES, type QueueId } from '../functions/workers';
import type { QueueDef, ScheduleDef } from '../functions/kernel/route-vocabulary';
import { functionContextOf } from './constructs/function-context';
import { Monitoring } from './constructs/monitoring';
import { Workers } from './constructs/workers';
import { DataUserStack, type DataStack } from './data-stack';
import type { StageConfig } from './stage-config';

export interface WorkersStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
  /** @default QUEUES of functions/workers.ts */
  readonly queues?: readonly QueueDef<QueueId>[];
  /** @default SCHEDULES of functions/workers.ts */
  readonly schedules?: readonly ScheduleDef[];
}

export class WorkersStack extends DataUserStack {
  public readonly workers: Workers;
  public readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);
    const { config, data } = props;
    const context = functionContextOf(config, data);
    this.workers = new Workers(this, 'Workers', {
      context,
      queues: props.queues ?? QUEUES,
      schedules: props.schedules ?? SCHEDULES,
      sourceQueues: {
        jobs: data.jobs.queue,
        webhooks: data.webhooks.queue,
        ocr: data.ocrQueue.queue,
        exports: data.exports.queue,
        responses: data.responses.queue,
        'order-events': data.orderEvents.queue,
      },
      jobsDeadLetterQueue: data.scheduledJobsDeadLetterQueue,
    });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      config,
      name: 'workers',
      functions: [
        ...this.workers.consumers.map(({ def, fn }) => ({ name: `${def.id}-consumer`, resource: fn.function })),
        ...this.workers.jobs.map(({ def, fn }) => ({ name: `${def.id}-job`, resource: fn.function })),
      ],
      queues: data.queuePairs.map(({ name, queue }) => ({ name, resource: queue })),
      deadLetterQueues: [
        ...data.queuePairs.map(({ name, deadLetterQueue }) => ({ name, resource: deadLetterQueue })),
        { name: 'scheduled-jobs', resource: data.scheduledJobsDeadLetterQueue },
      ],
      table: data.table,
      indexNames: TABLE_DESIGN.indexes.map((index) => index.name),
    });
  }
}
