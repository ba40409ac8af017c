/**
 * The catalog of area C: products managed through the admin API, and what the public discovery routes
 * show of them (active products of a live app only; an unknown or deleted app is 404).
 */
import type { App } from '../../tenancy/domain/app';
import { normalizeCurrency, validateProduct, type Product, type ProductInput, type ProductPatch } from '../domain/product';
import { notFound } from '../../kernel/domain/errors';
import type { AcpPorts } from './acp-ports';
import type { AcpDeps } from './acp-ports';
import { isUuid } from '../../kernel/domain/ids';

type CatalogDeps = Pick<AcpDeps, 'apps' | 'ids' | 'clock'> & AcpPorts;

/** A live app, or 404 (unknown, deleted, or not a UUID). */
export async function liveApp(deps: Pick<AcpDeps, 'apps'>, appId: string): Promise<App> {
  const app = isUuid(appId) ? await deps.apps.get(appId) : undefined;
  if (!app || app.deletedAtUs !== undefined) throw notFound('App not found');
  return app;
}

export async function createProduct(deps: CatalogDeps, input: { appId: string; product: ProductInput }): Promise<Product> {
  const app = await liveApp(deps, input.appId);
  const now = deps.clock.nowUs();
  const product: Product = {
    id: deps.ids.uuid(),
    orgId: app.orgId,
    appId: app.id,
    title: input.product.title.trim(),
    description: input.product.description ?? '',
    priceMinor: input.product.priceMinor,
    currency: normalizeCurrency(input.product.currency),
    inventory: input.product.inventory ?? null,
    active: true,
    imageUrl: input.product.imageUrl ?? null,
    createdAtUs: now,
    updatedAtUs: now,
  };
  validateProduct(product);
  await deps.products.create(product);
  return product;
}

export async function listProducts(deps: CatalogDeps, input: { appId: string; activeOnly: boolean }): Promise<Product[]> {
  const app = await liveApp(deps, input.appId);
  return deps.products.listByApp(app.id, { activeOnly: input.activeOnly });
}

/** Changes a product (deactivating is `active: false`); products of deleted apps are not found. */
export async function updateProduct(deps: CatalogDeps, input: { productId: string; patch: ProductPatch }): Promise<Product> {
  const current = isUuid(input.productId) ? await deps.products.get(input.productId) : undefined;
  if (!current) throw notFound('Product not found');
  await liveApp(deps, current.appId);
  const patch: ProductPatch = { ...input.patch, ...(input.patch.currency !== undefined ? { currency: normalizeCurrency(input.patch.currency) } : {}) };
  validateProduct({ ...current, ...patch });
  const updated = await deps.products.update(current.id, patch, deps.clock.nowUs());
  if (!updated) throw notFound('Product not found');
  return updated;
}
