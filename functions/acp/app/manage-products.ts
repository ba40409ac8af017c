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

/**
 * The app a call names. A console call also names the org it acts in: an app of another org is then
 * not found, exactly as an unknown one (its existence is never revealed); the admin API names no org.
 */
export interface AppScope {
  readonly appId: string;
  readonly orgId?: string;
}

/** A live app (of `orgId` when given), or 404 (unknown, deleted, another org's, or not a UUID). */
export async function liveApp(deps: Pick<AcpDeps, 'apps'>, appId: string, orgId?: string): Promise<App> {
  const app = isUuid(appId) ? await deps.apps.get(appId) : undefined;
  if (!app || app.deletedAtUs !== undefined || (orgId !== undefined && app.orgId !== orgId)) throw notFound('App not found');
  return app;
}

export async function createProduct(deps: CatalogDeps, input: AppScope & { product: ProductInput }): Promise<Product> {
  const app = await liveApp(deps, input.appId, input.orgId);
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

export async function listProducts(deps: CatalogDeps, input: AppScope & { activeOnly: boolean }): Promise<Product[]> {
  const app = await liveApp(deps, input.appId, input.orgId);
  return deps.products.listByApp(app.id, { activeOnly: input.activeOnly });
}

/**
 * Changes a product (deactivating is `active: false`); products of deleted apps are not found. A console
 * call names the app and org the product must belong to (`scope`): another app's product is not found.
 */
export async function updateProduct(deps: CatalogDeps, input: { productId: string; patch: ProductPatch; scope?: AppScope }): Promise<Product> {
  const scoped = input.scope ? await liveApp(deps, input.scope.appId, input.scope.orgId) : undefined;
  const current = isUuid(input.productId) ? await deps.products.get(input.productId) : undefined;
  if (!current || (scoped && current.appId !== scoped.id)) throw notFound('Product not found');
  if (!scoped) await liveApp(deps, current.appId);
  const patch: ProductPatch = { ...input.patch, ...(input.patch.currency !== undefined ? { currency: normalizeCurrency(input.patch.currency) } : {}) };
  validateProduct({ ...current, ...patch });
  const updated = await deps.products.update(current.id, patch, deps.clock.nowUs());
  if (!updated) throw notFound('Product not found');
  return updated;
}
