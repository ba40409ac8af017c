/**
 * The bodies of the admin order routes (fulfill, refund, cancel, the order-event receiver), in
 * `zod/mini`: strict objects, so a misspelt field is a 400 naming it, never ignored.
 */
import * as z from 'zod/mini';

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
