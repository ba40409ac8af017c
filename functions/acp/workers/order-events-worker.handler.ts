/**
 * The order-events queue consumer: one checkout session's pending order events a message, delivered to
 * the app's agent-platform receiver in revision order (acp/app/order-events.ts). A receiver's refusal or
 * a retry is a finished attempt, not a failed record: only a body that is not an order-events message
 * (poison) and infrastructure errors (table, KMS, queue) are partial batch failures. A run that nears
 * the function's timeout stops between two events and queues the session again.
 */
import * as z from 'zod/mini';
import { deliverOrderEvents } from '../app/order-events';
import type { OrderEventMessage } from '../app/acp-ports';
import { jsonBody, lambdaQueueHandler, sqsConsumer, type QueueHandler } from '../../kernel/workers/queue-kit';
import { orderEventWorkerProductionDeps, type OrderEventWorkerDeps } from '../acp-wiring';

/** A run stops starting attempts this long before the function's timeout (one attempt takes at most 10 s). */
export const ORDER_EVENTS_SAFETY_MS = 15_000;

const orderEventMessage = z.object({ type: z.literal('order-events'), sessionId: z.uuid() });

/** Typed against the port, so the schema cannot drift from what the senders write. */
export const parseOrderEventMessage: (body: string) => OrderEventMessage = jsonBody(orderEventMessage);

export const createHandler = (deps: OrderEventWorkerDeps): QueueHandler =>
  sqsConsumer(deps, {
    name: 'order-events',
    concurrent: true,
    parse: parseOrderEventMessage,
    handle: async (msg, _record, context) => {
      const deadline = Date.now() + context.getRemainingTimeInMillis() - ORDER_EVENTS_SAFETY_MS;
      const run = await deliverOrderEvents(deps, msg.sessionId, () => Date.now() >= deadline);
      deps.logger.info('order events delivery', { sessionId: msg.sessionId, ...run });
    },
  });

export const handler = lambdaQueueHandler(createHandler, orderEventWorkerProductionDeps);
