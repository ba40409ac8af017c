/**
 * The messages of the webhooks queue (a fan-out page or one delivery attempt), as its consumer parses
 * them (webhooks-worker.handler.ts): a body that is neither is poison.
 */
import * as z from 'zod/mini';
import { MAX_ATTEMPTS } from '../domain/webhook-delivery';
import type { WebhookMessage } from '../app/release-notes-ports';
import { jsonBody } from '../../kernel/workers/queue-kit';

const webhookMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('fan-out'),
    periodId: z.string().check(z.minLength(1)),
    revision: z.string().check(z.minLength(1)),
    cursor: z.optional(z.string()),
  }),
  z.object({
    type: z.literal('deliver'),
    subscriptionId: z.string().check(z.minLength(1)),
    periodId: z.string().check(z.minLength(1)),
    revision: z.string().check(z.minLength(1)),
    attempt: z.int().check(z.minimum(1), z.maximum(MAX_ATTEMPTS)),
  }),
]);

/** Typed against the port, so the schema cannot drift from what the senders write. */
export const parseWebhookMessage: (body: string) => WebhookMessage = jsonBody(webhookMessage);
