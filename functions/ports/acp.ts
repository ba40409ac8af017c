import type { Product, ProductPatch } from '../domain/acp/product';
import type { Micros } from '../domain/time';

/** The products of the apps' catalogs (area C). */
export interface ProductStore {
  create(product: Product): Promise<void>;
  get(id: string): Promise<Product | undefined>;
  /** The app's products, oldest first; only active ones when asked. */
  listByApp(appId: string, opts: { readonly activeOnly: boolean }): Promise<Product[]>;
  /**
   * Sets the patched fields only (one UpdateItem, so a concurrent inventory reservation is never
   * overwritten by an edit of another field); undefined when the product does not exist.
   */
  update(id: string, patch: ProductPatch, atUs: Micros): Promise<Product | undefined>;
}

/** The ports of area C. */
export interface AcpPorts {
  readonly products: ProductStore;
}
