/** Wire shapes of area C's admin resources (camelCase, like the rest of the admin API): products and orders. */
import { microsToIso } from '../../platform/domain/time';
import { totalsOf, type CheckoutSession } from '../domain/checkout';
import type { Product } from '../domain/product';

export function adminProduct(p: Product) {
  return {
    id: p.id,
    appId: p.appId,
    title: p.title,
    description: p.description,
    price: p.priceMinor,
    currency: p.currency,
    inventory: p.inventory,
    active: p.active,
    imageUrl: p.imageUrl,
    createdAt: microsToIso(p.createdAtUs),
    updatedAt: microsToIso(p.updatedAtUs),
  };
}

/** An order: the completed checkout session it came from, its lines and total in minor units. */
export function adminOrder(s: CheckoutSession) {
  return {
    id: s.order!.id,
    checkoutSessionId: s.id,
    appId: s.appId,
    currency: s.currency,
    total: totalsOf(s).find((t) => t.type === 'total')!.amount,
    lines: s.lines.map((l) => ({ productId: l.productId, title: l.title, quantity: l.quantity, unitAmount: l.unitAmount })),
    buyerEmail: s.buyerEmail,
    paymentReference: s.order!.paymentReference,
    createdAt: microsToIso(s.order!.createdAtUs),
  };
}
