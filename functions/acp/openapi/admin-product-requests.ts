/**
 * The bodies of the admin catalog routes, in `zod/mini`: the handlers parse with them and the admin
 * OpenAPI document shows them. Strict objects: a misspelt field is a 400 naming it.
 */
import * as z from 'zod/mini';

export const PRODUCT_CREATE_BODY = z
  .strictObject({
    title: z.string(),
    description: z.optional(z.string()),
    /** Minor units (cents). */
    price: z.int(),
    currency: z.string(),
    inventory: z.optional(z.nullable(z.int())),
    imageUrl: z.optional(z.nullable(z.string())),
  })
  .check(z.meta({ title: 'ProductCreateRequest' }));

export const PRODUCT_UPDATE_BODY = z
  .strictObject({
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    price: z.optional(z.int()),
    currency: z.optional(z.string()),
    inventory: z.optional(z.nullable(z.int())),
    active: z.optional(z.boolean()),
    imageUrl: z.optional(z.nullable(z.string())),
  })
  .check(z.meta({ title: 'ProductUpdateRequest' }));
