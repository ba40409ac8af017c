/**
 * Locally, the part of Lambda's SQS event source mapping the platform relies on: long-poll a queue,
 * hand the batch to the same queue handler module, delete what succeeded and let partial batch
 * failures come back (after a short visibility timeout here) until the redrive policy dead-letters them
 * (fauxqs moves a message to the DLQ on the receive after maxReceiveCount, as SQS does). The response
 * is read as Lambda reads it: no response or no failures means the whole batch succeeded, a failure
 * naming no message of the batch fails the whole batch, and so does a handler that throws; the runner
 * itself carries on either way.
 * A queue with `maxConcurrency` gets that many pollers (at most 8), as Lambda runs concurrent batches:
 * a slow batch (a webhook receiver that hangs for 10 s) does not hold up the others.
 */
import { randomUUID } from 'node:crypto';
import { ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { LocalDeps } from './local-wiring';
import type { QueueHandler } from '../kernel/workers/queue-kit';
import type { QueueDef } from '../kernel/route-vocabulary';
import { importEntry } from './entry-modules';

const RETRY_VISIBILITY_SECONDS = 2;
const MAX_LOCAL_POLLERS = 8;

export interface QueueRunner {
  stop(): Promise<void>;
  /** Resolves once every message visible now has been handled (tests use it to wait for workers). */
  drain(): Promise<void>;
}

export interface QueueRunnerOptions {
  /** How long a failed message stays hidden before it is received again (2 s). */
  readonly retryVisibilitySeconds?: number;
}

export async function startQueueRunner(
  sqs: SQSClient,
  deps: LocalDeps,
  queue: QueueDef,
  queueUrl: string,
  log: (line: object) => void,
  opts: QueueRunnerOptions = {},
): Promise<QueueRunner> {
  const mod = await importEntry<{ createHandler: (d: LocalDeps) => QueueHandler }>(queue.handler);
  return consumeQueue(sqs, mod.createHandler(deps), queue, queueUrl, log, opts);
}

/**
 * The message ids to retry, from what a handler returned, as Lambda decides: a missing response or
 * failure list is success; a failure whose identifier is empty or names no message of the batch makes
 * the whole batch a failure.
 */
export function failedMessageIds(messages: readonly Message[], response: Partial<SQSBatchResponse> | null | undefined): Set<string> {
  const all = new Set(messages.map((m) => m.MessageId!));
  const failures = response?.batchItemFailures ?? [];
  if (failures.some((f) => typeof f?.itemIdentifier !== 'string' || !all.has(f.itemIdentifier))) return all;
  return new Set(failures.map((f) => f.itemIdentifier));
}

/** Polls `queueUrl` with `handler` (a queue module's handler, or a test's) until stopped. */
export function consumeQueue(
  sqs: SQSClient,
  handler: QueueHandler,
  queue: QueueDef,
  queueUrl: string,
  log: (line: object) => void,
  opts: QueueRunnerOptions = {},
): QueueRunner {
  const abort = new AbortController();
  const retryVisibilitySeconds = opts.retryVisibilitySeconds ?? RETRY_VISIBILITY_SECONDS;

  const pollOnce = async (waitSeconds: number): Promise<number> => {
    const res = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: Math.min(10, queue.batchSize),
        WaitTimeSeconds: waitSeconds,
        AttributeNames: ['All'],
      }),
      { abortSignal: abort.signal },
    );
    const messages = res.Messages ?? [];
    if (messages.length === 0) return 0;
    const event: SQSEvent = {
      Records: messages.map((m) => ({
        messageId: m.MessageId!,
        receiptHandle: m.ReceiptHandle!,
        body: m.Body ?? '',
        attributes: (m.Attributes ?? {}) as SQSEvent['Records'][number]['attributes'],
        messageAttributes: {},
        md5OfBody: m.MD5OfBody ?? '',
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:local:000000000000:${queue.id}`,
        awsRegion: 'local',
      })),
    };
    const context = { awsRequestId: randomUUID(), functionName: queue.handler, getRemainingTimeInMillis: () => queue.timeoutSeconds * 1000 } as Context;
    let failed: Set<string>;
    try {
      failed = failedMessageIds(messages, await handler(event, context));
    } catch (err) {
      log({ level: 'ERROR', message: 'queue handler threw; whole batch retried', queue: queue.id, error: String(err) });
      failed = new Set(messages.map((m) => m.MessageId!));
    }
    for (const m of messages) {
      if (failed.has(m.MessageId!)) {
        await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: retryVisibilitySeconds }));
      } else {
        await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
      }
    }
    return messages.length;
  };

  const poller = () => {
    let idleWaiters: (() => void)[] = [];
    let idle = false;
    const loop = (async () => {
      while (!abort.signal.aborted) {
        try {
          const n = await pollOnce(idle ? 1 : 0);
          idle = n === 0;
          if (idle) {
            for (const w of idleWaiters) w();
            idleWaiters = [];
          }
        } catch (err) {
          if (abort.signal.aborted) break;
          log({ level: 'ERROR', message: 'queue poll failed', queue: queue.id, error: String(err) });
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    })();
    return {
      loop,
      drain() {
        idle = false;
        return new Promise<void>((resolve) => idleWaiters.push(resolve));
      },
    };
  };
  const pollers = Array.from({ length: Math.min(queue.maxConcurrency ?? 1, MAX_LOCAL_POLLERS) }, poller);

  return {
    async stop() {
      abort.abort();
      await Promise.all(pollers.map((p) => p.loop));
    },
    async drain() {
      await Promise.all(pollers.map((p) => p.drain()));
    },
  };
}
