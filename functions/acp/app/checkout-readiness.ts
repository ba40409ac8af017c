/**
 * The readiness check of a checkout session under the Agentic Commerce Protocol: every line names an
 * active product of this app, in one currency, with enough stock; then the session is
 * `ready_for_payment`, else `not_ready_for_payment` with a message per problem. Unknown products are a 400.
 * It prices the lines from the catalog and takes the app's tax rate with them: a session keeps both.
 * The catalog (the app and the lines' products) is read once per request, in one batch (readCatalog).
 */
import { invalid, type CheckoutLine, type CheckoutMessage, type CheckoutStatus, type RequestedLine } from '../domain/checkout';
import type { Product } from '../domain/product';
import type { CheckoutPorts, CheckoutSnapshot } from './acp-ports';

export const CHECKOUT_TERMINAL_MESSAGE = 'The checkout session can no longer change: it is';

export interface Readiness {
  readonly status: Extract<CheckoutStatus, 'ready_for_payment' | 'not_ready_for_payment'>;
  readonly currency: string;
  readonly lines: CheckoutLine[];
  /** The app's tax rate now, in basis points (0 when the app is gone). */
  readonly taxRateBps: number;
  readonly messages: CheckoutMessage[];
}

/** What the readiness check reads: the app and the products of the lines, by id. */
export type Catalog = Pick<CheckoutSnapshot, 'app' | 'products'>;

/**
 * The app and the products of `requested`. What `known` holds (read earlier in the same request) is
 * not read again: the app as it was read there, absent or not; the products it lacks in one batch.
 */
export async function readCatalog(
  deps: Pick<CheckoutPorts, 'checkoutReader'>,
  input: { readonly appId: string; readonly requested: readonly RequestedLine[]; readonly known?: Catalog },
): Promise<Catalog> {
  const missing = input.requested.map((r) => r.productId).filter((id) => !input.known?.products.has(id));
  if (input.known && missing.length === 0) return input.known;
  const read = await deps.checkoutReader.read({ appId: input.appId, productIds: missing });
  return { app: input.known ? input.known.app : read.app, products: new Map([...(input.known?.products ?? []), ...read.products]) };
}

/** Whether a product's stock is counted (a limited product): only those are held on complete. */
export const isLimited = (product: Product | undefined): boolean => product !== undefined && product.inventory !== null;

export function readiness(
  catalog: Catalog,
  input: {
    appId: string;
    requested: readonly RequestedLine[];
    currency: string | undefined;
    lineId: (productId: string) => string;
    /** Off in a complete, where the stock holds themselves are the check (and may already include this complete's own). @default true */
    checkStock?: boolean;
  },
): Readiness {
  const products = input.requested.map((r) => catalog.products.get(r.productId));
  const messages: CheckoutMessage[] = [];
  const lines: CheckoutLine[] = input.requested.map((r, i) => {
    const product = products[i];
    // Another app's product is as unknown as a missing one.
    if (!product || product.appId !== input.appId) throw invalid('invalid_item_id', `Unknown product: ${r.productId}`, `$.line_items[${i}]`);
    if (!product.active) messages.push({ type: 'error', code: 'invalid', param: `$.line_items[${i}]`, content: `${product.title} is no longer sold` });
    else if ((input.checkStock ?? true) && product.inventory !== null && product.inventory < r.quantity) {
      messages.push({ type: 'error', code: 'out_of_stock', param: `$.line_items[${i}].quantity`, content: `${product.title}: only ${product.inventory} left` });
    }
    return { lineId: input.lineId(product.id), productId: product.id, title: product.title, unitAmount: product.priceMinor, quantity: r.quantity };
  });
  const currencies = new Set(products.map((p) => p!.currency));
  const currency = input.currency ?? [...currencies][0]!;
  if (currencies.size > 1 || !currencies.has(currency)) {
    throw invalid(
      'invalid',
      `All line items must be in the session's currency (${[...currencies].join(', ')} given${input.currency ? `, session in ${input.currency}` : ''})`,
      '$.currency',
    );
  }
  const taxRateBps = catalog.app?.settings.acp.taxRateBps ?? 0;
  return { status: messages.length ? 'not_ready_for_payment' : 'ready_for_payment', currency, lines, taxRateBps, messages };
}
