/**
 * Compute and operations: the REST API with one function per route, the WAF in front of it, queue
 * consumers and scheduled jobs, and the alarms and dashboard over all of it. Holds no data, so it can
 * be replaced at will; the data lives in DataStack.
 */
import { CrossStackReferences, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ROUTES, type RouteDef } from '../functions/routes';
import { TABLE_DESIGN } from '../functions/table-design';
import { QUEUES, SCHEDULES, type QueueDef, type ScheduleDef } from '../functions/workers';
import { ApiFirewall } from './constructs/api-firewall';
import type { FunctionContext } from './constructs/app-function';
import { HttpApi } from './constructs/http-api';
import { Monitoring } from './constructs/monitoring';
import { Workers } from './constructs/workers';
import type { DataStack } from './data-stack';
import type { StageConfig } from './stage-config';

export interface ApiStackProps extends StackProps {
  readonly config: StageConfig;
  readonly data: DataStack;
  /** @default ROUTES of functions/routes.ts */
  readonly routes?: readonly RouteDef[];
  /** @default QUEUES of functions/workers.ts */
  readonly queues?: readonly QueueDef[];
  /** @default SCHEDULES of functions/workers.ts */
  readonly schedules?: readonly ScheduleDef[];
}

export class ApiStack extends Stack {
  public readonly http: HttpApi;
  public readonly workers: Workers;
  public readonly firewall: ApiFirewall;
  public readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    // Strong (export/import): the data stack cannot drop a table, bucket or queue this stack still
    // uses. Removing one takes the documented two-step weakening instead.
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    const { config, data } = props;

    const context: FunctionContext = {
      config,
      table: data.table,
      uploadsBucketName: data.uploadsBucketName,
      jobsQueue: data.jobs.queue,
      webhooksQueue: data.webhooks.queue,
      webhookSecretsKey: data.webhookSecretsKey,
    };

    this.http = new HttpApi(this, 'Http', { context, routes: props.routes ?? ROUTES });
    this.firewall = new ApiFirewall(this, 'Firewall', {
      stage: this.http.api.deploymentStage,
      requestsPerIpPer5Min: config.wafRequestsPerIpPer5Min,
      logRetention: config.logRetention,
      retainLogs: config.retainData,
    });
    this.workers = new Workers(this, 'Workers', {
      context,
      queues: props.queues ?? QUEUES,
      schedules: props.schedules ?? SCHEDULES,
      sourceQueues: { jobs: data.jobs.queue, webhooks: data.webhooks.queue },
      jobsDeadLetterQueue: data.scheduledJobsDeadLetterQueue,
    });

    this.monitoring = new Monitoring(this, 'Monitoring', {
      stage: config.stage,
      retainData: config.retainData,
      api: this.http.api,
      functions: [
        ...this.http.routes.map(({ route, fn }) => ({ name: route.id, resource: fn.function })),
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
      ...(config.alarmEmail ? { alarmEmail: config.alarmEmail } : {}),
    });
  }
}
