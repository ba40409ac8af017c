/**
 * The building block of the areas' request schemas (`<area>/openapi/<area>-requests.ts`): a query
 * parameter as the OpenAPI document shows it, read by its area's own rule, which refuses a malformed
 * value with the area's exact 400. `zod/mini` only: request schemas are in their functions' bundles.
 */
import * as z from 'zod/mini';

/** An optional query parameter: its text as documented (`meta`: description, format, ...), read into a value by `read`, which throws the 400. */
export function queryParam<T>(meta: Record<string, unknown>, read: (raw: string) => T) {
  return z.optional(z.pipe(z.string().check(z.meta(meta)), z.transform(read)));
}
