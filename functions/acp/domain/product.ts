/**
 * The catalog of an app for area C (Agentic Commerce Protocol): products with a price in minor units,
 * an inventory count (or none: unlimited) and an active flag. Agents discover active products through
 * the public products route and buy them through checkout sessions.
 */
import { badRequest } from '../../kernel/domain/errors';
import type { Micros } from '../../kernel/domain/time';

export interface Product {
  readonly id: string;
  readonly orgId: string;
  readonly appId: string;
  readonly title: string;
  readonly description: string;
  /** Price of one unit in the currency's minor units (cents for usd). */
  readonly priceMinor: number;
  /** ISO 4217, lower case (`usd`), as ACP checkout uses it. */
  readonly currency: string;
  /** Units available; null for no limit (digital goods). */
  readonly inventory: number | null;
  readonly active: boolean;
  readonly imageUrl: string | null;
  readonly createdAtUs: Micros;
  readonly updatedAtUs: Micros;
}

export interface ProductInput {
  readonly title: string;
  readonly description?: string;
  readonly priceMinor: number;
  readonly currency: string;
  readonly inventory?: number | null;
  readonly imageUrl?: string | null;
}

export type ProductPatch = Partial<Pick<Product, 'title' | 'description' | 'priceMinor' | 'currency' | 'inventory' | 'active' | 'imageUrl'>>;

export const PRODUCT_LIMITS = { titleMax: 200, descriptionMax: 5000, priceMax: 100_000_000_00, inventoryMax: 1_000_000_000 } as const;
const CURRENCY = /^[a-z]{3}$/;

/** Checks a product's fields (create, or the result of an update); every violation is a 400 naming the field. */
export function validateProduct(p: Pick<Product, 'title' | 'description' | 'priceMinor' | 'currency' | 'inventory' | 'imageUrl'>): void {
  if (p.title.trim().length === 0 || p.title.length > PRODUCT_LIMITS.titleMax) throw badRequest(`Invalid title: 1 to ${PRODUCT_LIMITS.titleMax} characters`);
  if (p.description.length > PRODUCT_LIMITS.descriptionMax) throw badRequest(`Invalid description: at most ${PRODUCT_LIMITS.descriptionMax} characters`);
  if (!Number.isSafeInteger(p.priceMinor) || p.priceMinor < 0 || p.priceMinor > PRODUCT_LIMITS.priceMax) {
    throw badRequest('Invalid price: a whole number of minor units (cents), 0 or more');
  }
  if (!CURRENCY.test(p.currency)) throw badRequest('Invalid currency: an ISO 4217 code such as usd');
  if (p.inventory !== null && (!Number.isSafeInteger(p.inventory) || p.inventory < 0 || p.inventory > PRODUCT_LIMITS.inventoryMax)) {
    throw badRequest('Invalid inventory: a whole number of units, 0 or more (omit it for no limit)');
  }
  if (p.imageUrl !== null && !isHttpsUrl(p.imageUrl)) throw badRequest('Invalid imageUrl: an https URL');
}

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:' && value.length <= 2048;
  } catch {
    return false;
  }
}

export function normalizeCurrency(currency: string): string {
  return currency.trim().toLowerCase();
}
