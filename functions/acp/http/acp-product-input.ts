/** A product as the admin and console APIs take it (`price` in minor units) turned into the catalog's input. */
import { badRequest } from '../../kernel/domain/errors';
import type { ProductInput, ProductPatch } from '../domain/product';

interface ProductFields {
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly price?: number | undefined;
  readonly currency?: string | undefined;
  readonly inventory?: number | null | undefined;
  readonly active?: boolean | undefined;
  readonly imageUrl?: string | null | undefined;
}

export function productInputOf(body: ProductFields & { title: string; price: number; currency: string }): ProductInput {
  return {
    title: body.title,
    priceMinor: body.price,
    currency: body.currency,
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.inventory !== undefined ? { inventory: body.inventory } : {}),
    ...(body.imageUrl !== undefined ? { imageUrl: body.imageUrl } : {}),
  };
}

/** The fields sent, at least one (an empty change is a 400). */
export function productPatchOf(body: ProductFields): ProductPatch {
  const { price, ...rest } = body;
  const patch = Object.fromEntries(Object.entries({ ...rest, priceMinor: price }).filter(([, v]) => v !== undefined)) as ProductPatch;
  if (Object.keys(patch).length === 0) throw badRequest('Nothing to change: send at least one field');
  return patch;
}
