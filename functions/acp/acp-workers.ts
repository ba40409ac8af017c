/**
 * The queue consumer and scheduled job of area C: order events to the agent platform and the recovery of
 * unfinished checkout completes. Joined by functions/workers.ts; synth loads this file, so it imports
 * only types and leaf modules.
 */
import { queueTable, scheduleTable } from '../kernel/route-vocabulary';

export const ACP_QUEUES = queueTable({
  // One checkout session's order events a message, delivered in revision order (acp/app/order-events.ts):
  // 10 s an attempt, and a run that yields with 15 s to spare queues itself again. Retries go through
  // per-message delays, not through redrive. A claim per order keeps two messages of one session from
  // sending at once; at most 20 sessions at once bounds the load on the table and KMS.
  'order-events': {
    handler: 'acp/workers/order-events-worker',
    batchSize: 1,
    timeoutSeconds: 60,
    maxReceiveCount: 5,
    maxConcurrency: 20,
    grants: ['table:read', 'table:write', 'order-events:send', 'secrets:open'],
  },
});

export const ACP_SCHEDULES = scheduleTable({
  // Checkout completes whose request is gone (a crash, a timeout, an unknown payment outcome): finished
  // under the same payment idempotency key once their 2-minute lease runs out (docs/adr/0018); order
  // events left in an outbox are asked of the order-events worker again.
  'checkout-recovery': {
    handler: 'acp/workers/checkout-recovery',
    expression: 'rate(1 minute)',
    timeoutSeconds: 120,
    grants: ['table:read', 'table:write', 'payments:charge', 'order-events:send'],
  },
});
