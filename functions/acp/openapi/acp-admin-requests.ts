/**
 * The requests of area C's admin routes (products, orders, the order-event receiver, ACP keys), one
 * declaration per operation (keyed by route id): the handlers read their input with it. Bodies are
 * `zod/mini` strict objects, so a misspelt field is a 400 naming it, never ignored; path ids are UUIDs.
 */
import * as z from 'zod/mini';
import { uuidPathId } from '../../kernel/http/request-declaration';
import { appKeyRequest, zodBody } from '../../kernel/http/validation';

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));
const httpsUrl = z.string().check(
  z.maxLength(2048),
  z.refine((v) => /^https:\/\/[^\s]+$/.test(v) && URL.canParse(v), { message: 'must be an https URL' }),
);

/** Units of the order's lines: `lineId` is the line's id in the order (`line_items[].id`). */
const lines = z.array(z.strictObject({ lineId: text(64), quantity: z.int().check(z.minimum(1), z.maximum(10_000)) })).check(z.minLength(1), z.maxLength(100));

export const fulfillBody = z.strictObject({
  type: z.enum(['shipping', 'digital']),
  /** A shipment starts `shipped` unless it is recorded `delivered`; a digital delivery is always delivered. */
  status: z.optional(z.enum(['shipped', 'delivered'])),
  lines: z.optional(lines),
  carrier: z.optional(text(100)),
  trackingNumber: z.optional(text(100)),
  trackingUrl: z.optional(httpsUrl),
});

export const refundBody = z.strictObject({
  amount: z.int().check(z.minimum(1), z.maximum(Number.MAX_SAFE_INTEGER)),
  lines: z.optional(lines),
  reason: z.optional(text(500)),
});

export const cancelBody = z.strictObject({
  /** Refund what was charged and not refunded yet (the default), or keep it. */
  refund: z.optional(z.boolean()),
  reason: z.optional(text(500)),
});

export const orderWebhookBody = z.strictObject({
  url: z.string().check(z.minLength(1), z.maxLength(2048)),
  secret: z.optional(z.string()),
});

export const productCreateBody = z.strictObject({
  title: z.string(),
  description: z.optional(z.string()),
  /** Minor units (cents). */
  price: z.int(),
  currency: z.string(),
  inventory: z.optional(z.nullable(z.int())),
  imageUrl: z.optional(z.nullable(z.string())),
});

export const productUpdateBody = z.strictObject({
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  price: z.optional(z.int()),
  currency: z.optional(z.string()),
  inventory: z.optional(z.nullable(z.int())),
  active: z.optional(z.boolean()),
  imageUrl: z.optional(z.nullable(z.string())),
});

const app = { appId: uuidPathId('appId') };
const order = { ...app, orderId: uuidPathId('orderId') };

export const ACP_ADMIN_REQUESTS = {
  adminAcpKeyCreate: { path: app, body: zodBody(appKeyRequest, { emptyAsObject: true }) },
  adminProductCreate: { path: app, body: zodBody(productCreateBody, { required: true }) },
  adminProductUpdate: { path: { productId: uuidPathId('productId') }, body: zodBody(productUpdateBody, { required: true }) },
  adminOrderFulfill: { path: order, body: zodBody(fulfillBody, { required: true }) },
  adminOrderRefund: { path: order, body: zodBody(refundBody, { required: true }) },
  adminOrderCancel: { path: order, body: zodBody(cancelBody, { emptyAsObject: true }) },
  adminOrderWebhookPut: { path: app, body: zodBody(orderWebhookBody, { required: true }) },
};
