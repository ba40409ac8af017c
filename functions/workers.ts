/**
 * Queue consumers and scheduled jobs: the non-HTTP entry points. Like the route table, the CDK stacks
 * and the local process both loop over these. No runtime imports.
 */
import type { Grant } from './routes';

export interface QueueDef {
  readonly id: 'jobs' | 'webhooks' | 'ocr' | 'exports' | 'order-events';
  /**
   * Who sends to the queue: `functions` (a function with the matching grant) or `textract` (Textract's
   * completion notices through the OCR SNS topic, raw delivery; locally the tesseract engine).
   * @default 'functions'
   */
  readonly source?: 'functions' | 'textract';
  /** The consumer module's path under functions/, without `.handler.ts` (`<area>/queue/<name>`). */
  readonly handler: string;
  readonly batchSize: number;
  readonly timeoutSeconds: number;
  readonly maxReceiveCount: number;
  /** Concurrent invocations of the consumer (SQS event source maximum concurrency, at least 2). @default unbounded */
  readonly maxConcurrency?: number;
  readonly grants: readonly Grant[];
}

export type JobName = 'retention-expiry' | 'empty-session-cleanup' | 'deletion-sweep' | 'file-cleanup' | 'checkout-recovery';

export interface ScheduleDef {
  readonly id: JobName;
  /** The job module's path under functions/, without `.handler.ts` (`<area>/jobs/<name>`). */
  readonly handler: string;
  /** EventBridge Scheduler `rate(...)` expression on AWS; the local timer runs at the same interval. */
  readonly expression: `rate(${number} ${'minute' | 'minutes' | 'hour' | 'hours' | 'day' | 'days'})`;
  readonly timeoutSeconds: number;
  readonly grants: readonly Grant[];
}

export const QUEUES: readonly QueueDef[] = [
  {
    id: 'jobs',
    handler: 'conversations/queue/jobs-worker',
    batchSize: 5,
    timeoutSeconds: 120,
    maxReceiveCount: 5,
    grants: ['table:read', 'table:write', 'jobs:send'],
  },
  // Deliveries of a batch run concurrently: one 10 s attempt each, plus a fan-out message that yields
  // with 15 s to spare. The retries of area D go through per-message delays, not through redrive.
  // At most 50 batches at once (500 deliveries in flight) bounds the load on the table and KMS.
  {
    id: 'webhooks',
    handler: 'release-notes/queue/webhooks-worker',
    batchSize: 10,
    timeoutSeconds: 60,
    maxReceiveCount: 5,
    maxConcurrency: 50,
    grants: ['table:read', 'table:write', 'webhooks:send', 'secrets:open'],
  },
  // Textract completions (SNS -> SQS): fetch the text and store it. Locally the tesseract engine posts the same notice.
  {
    id: 'ocr',
    handler: 'chat/queue/ocr-worker',
    batchSize: 5,
    timeoutSeconds: 120,
    maxReceiveCount: 5,
    source: 'textract',
    grants: ['table:read', 'table:write', 'bucket:write', 'ocr:read'],
  },
  // One chunk of a bulk snapshot export a message (docs/adr/0031): up to 5,000 rows or 64 MB of NDJSON
  // written to the bucket. A few at once keeps an export from crowding the table's other readers.
  {
    id: 'exports',
    handler: 'export/queue/export-worker',
    batchSize: 1,
    timeoutSeconds: 300,
    maxReceiveCount: 5,
    maxConcurrency: 4,
    grants: ['table:read', 'table:write', 'bucket:write', 'exports:send'],
  },
  // One checkout session's order events a message, delivered in revision order (acp/app/order-events.ts):
  // 10 s an attempt, and a run that yields with 15 s to spare queues itself again. Retries go through
  // per-message delays, not through redrive. A claim per order keeps two messages of one session from
  // sending at once; at most 20 sessions at once bounds the load on the table and KMS.
  {
    id: 'order-events',
    handler: 'acp/queue/order-events-worker',
    batchSize: 1,
    timeoutSeconds: 60,
    maxReceiveCount: 5,
    maxConcurrency: 20,
    grants: ['table:read', 'table:write', 'order-events:send', 'secrets:open'],
  },
];

export const SCHEDULES: readonly ScheduleDef[] = [
  {
    id: 'retention-expiry',
    handler: 'conversations/jobs/retention-expiry',
    expression: 'rate(1 hour)',
    timeoutSeconds: 300,
    grants: ['table:read', 'table:write'],
  },
  {
    id: 'empty-session-cleanup',
    handler: 'conversations/jobs/empty-session-cleanup',
    expression: 'rate(1 hour)',
    timeoutSeconds: 300,
    grants: ['table:read', 'table:write'],
  },
  // Files uploaded and never referenced, and uploads a crash left pending (conversations/domain/file.ts).
  {
    id: 'file-cleanup',
    handler: 'chat/jobs/file-cleanup',
    expression: 'rate(1 hour)',
    timeoutSeconds: 300,
    grants: ['table:read', 'table:write', 'bucket:read', 'bucket:write'],
  },
  // Checkout completes whose request is gone (a crash, a timeout, an unknown payment outcome): finished
  // under the same payment idempotency key once their 2-minute lease runs out (docs/adr/0018); order
  // events left in an outbox are asked of the order-events worker again.
  {
    id: 'checkout-recovery',
    handler: 'acp/jobs/checkout-recovery',
    expression: 'rate(1 minute)',
    timeoutSeconds: 120,
    grants: ['table:read', 'table:write', 'payments:charge', 'order-events:send'],
  },
  {
    id: 'deletion-sweep',
    handler: 'conversations/jobs/deletion-sweep',
    expression: 'rate(10 minutes)',
    timeoutSeconds: 300,
    grants: ['table:read', 'table:write', 'jobs:send'],
  },
];

const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** The interval of a `rate(...)` expression in milliseconds. */
export function rateIntervalMs(expression: ScheduleDef['expression']): number {
  const m = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(expression);
  if (!m) throw new Error(`unsupported schedule expression ${expression}`);
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}
