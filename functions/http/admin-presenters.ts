/** Wire shapes of the admin API (camelCase, like the spec's admin-side resources). */
import { totalsOf, type CheckoutSession } from '../domain/acp/checkout';
import type { Product } from '../domain/acp/product';
import type { StoredCredential } from '../domain/credentials';
import type { Org } from '../domain/org';
import { microsToIso } from '../domain/time';
import type { Tombstone } from '../domain/tombstone';

export function adminOrg(org: Org) {
  return { id: org.id, name: org.name, plan: org.plan, createdAt: microsToIso(org.createdAtUs), updatedAt: microsToIso(org.updatedAtUs) };
}

export function adminCredential(cred: StoredCredential, rawKey?: string) {
  return {
    id: cred.id,
    kind: cred.kind,
    orgId: cred.orgId,
    ...(cred.appId ? { appId: cred.appId } : {}),
    ...(cred.kind === 'org' ? { scopes: cred.scopes } : {}),
    ...(cred.name ? { name: cred.name } : {}),
    ...(rawKey ? { key: rawKey } : { keyPrefix: cred.displayPrefix }),
    createdAt: microsToIso(cred.createdAtUs),
    expiresAt: cred.expiresAtUs !== undefined ? microsToIso(cred.expiresAtUs) : null,
    revokedAt: cred.revokedAtUs !== undefined ? microsToIso(cred.revokedAtUs) : null,
  };
}

export function adminTombstone(t: Tombstone) {
  return { id: t.id, resourceType: t.resourceType, resourceId: t.resourceId, cause: t.cause, deletedAt: microsToIso(t.deletedAtUs) };
}

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
