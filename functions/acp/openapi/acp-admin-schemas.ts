/**
 * Area C's admin wire shapes (camelCase, as acp/http/acp-admin-presenters.ts writes them): products,
 * orders, an order's events and the app's order-event receiver, for the admin OpenAPI document.
 */
import * as z from 'zod';
import { isoTime, uuid } from '../../kernel/openapi-kit';

export const adminProduct = z
  .object({
    id: uuid,
    appId: uuid,
    title: z.string(),
    description: z.string(),
    price: z.int().meta({ description: 'Minor units (cents)' }),
    currency: z.string(),
    inventory: z.nullable(z.int()).meta({ description: 'Units in stock; null for unlimited' }),
    active: z.boolean(),
    imageUrl: z.nullable(z.string()),
    createdAt: isoTime,
    updatedAt: isoTime,
  })
  .meta({ title: 'AdminProduct' });

export const adminOrder = z
  .object({
    id: uuid,
    checkoutSessionId: uuid,
    appId: uuid,
    currency: z.string(),
    status: z.enum(['confirmed', 'processing', 'shipped', 'completed', 'canceled']),
    taxRateBps: z.int(),
    tax: z.int(),
    total: z.int().meta({ description: 'What was charged, tax included, in minor units' }),
    refunded: z.int(),
    lines: z.array(z.object({ lineId: z.string(), productId: uuid, title: z.string(), quantity: z.int(), unitAmount: z.int() })),
    buyerEmail: z.nullable(z.string()),
    orderNotes: z.nullable(z.string()),
    paymentReference: z.string(),
    createdAt: isoTime,
  })
  .meta({ title: 'AdminOrder' });

export const adminOrderDetail = adminOrder
  .extend({
    revision: z.int(),
    pendingEvents: z.int().meta({ description: 'Order events not delivered to the agent platform yet' }),
    acpOrder: z
      .record(z.string(), z.unknown())
      .meta({ description: 'The ACP `Order` the agent platform’s order events carry; `fulfillments[].id` is what the deliver route takes' }),
  })
  .meta({ title: 'AdminOrderDetail' });

const eventType = z.enum(['order_create', 'order_update']);

export const adminOrderEvents = z
  .object({
    orderId: uuid,
    deliveredThrough: z.int().meta({ description: 'The revision through which events were delivered' }),
    pending: z.array(z.object({ revision: z.int(), type: eventType, createdAt: isoTime })),
    attempts: z.array(
      z.object({
        revision: z.int(),
        type: eventType,
        attempt: z.int(),
        attemptedAt: isoTime,
        latencyMs: z.int(),
        outcome: z.string(),
        httpStatus: z.int().optional(),
        error: z.string().optional(),
      }),
    ),
  })
  .meta({ title: 'AdminOrderEvents' });

export const adminOrderWebhook = z
  .object({
    appId: uuid,
    url: z.string(),
    createdAt: isoTime,
    updatedAt: isoTime,
    secret: z.string().optional().meta({ description: 'The signing secret the platform made, shown once (absent when the request gave one)' }),
  })
  .meta({ title: 'AdminOrderWebhook' });
