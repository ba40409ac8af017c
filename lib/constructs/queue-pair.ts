/**
 * A work queue with its dead-letter queue, sized from the queue's declaration in functions/workers.ts.
 * Added straight to the given scope (the data stack) rather than wrapped in a construct of its own,
 * so the queues' logical ids stay what they have always been.
 */
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { QUEUES, type QueueId } from '../../functions/workers';
import type { QueueDef } from '../../functions/kernel/route-vocabulary';

/** A queue the platform sends to and the dead-letter queue its poison messages end in. */
export interface QueuePair {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
}

/** AWS guidance for SQS -> Lambda: visibility timeout at least six times the function timeout. */
const VISIBILITY_FACTOR = 6;

/** Work queues hold only in-flight work and go with the stack; their DLQs keep evidence (`removalPolicy`). */
export function addQueuePair(scope: Construct, id: string, def: Pick<QueueDef, 'timeoutSeconds' | 'maxReceiveCount'>, removalPolicy: RemovalPolicy): QueuePair {
  const deadLetterQueue = new sqs.Queue(scope, `${id}Dlq`, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    removalPolicy,
  });
  const queue = new sqs.Queue(scope, `${id}Queue`, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    visibilityTimeout: Duration.seconds(def.timeoutSeconds * VISIBILITY_FACTOR),
    retentionPeriod: Duration.days(4),
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: def.maxReceiveCount },
  });
  return { queue, deadLetterQueue };
}

export function queueDef(id: QueueId): QueueDef {
  const def = QUEUES.find((q) => q.id === id);
  if (!def) throw new Error(`functions/workers.ts declares no queue "${id}"`);
  return def;
}
