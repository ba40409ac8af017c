/**
 * The building block of the areas' request schemas (`<area>/openapi/<area>-requests.ts`): a query
 * parameter as the OpenAPI document shows it (its JSON Schema), read by its area's own rule, which
 * refuses a malformed value with the area's exact 400. Plain objects, no zod: request schemas are in
 * their functions' bundles, and a query's text needs no more than its rule.
 */
import type { JsonSchema } from '../domain/json-schema';

/** An optional query parameter: its JSON Schema (a string unless it says otherwise) and the rule that reads it. */
export interface QueryParam<T> {
  readonly schema: JsonSchema;
  read(raw: string): T;
}

export function queryParam<T>(schema: JsonSchema, read: (raw: string) => T): QueryParam<T> {
  return { schema: { type: 'string', ...schema }, read };
}

/** An operation's query: its parameters by name, in the order their rules run. */
export type QueryParams = Readonly<Record<string, QueryParam<unknown>>>;

/** What the parameters present read as. */
export type ParsedQuery<Q extends QueryParams> = { readonly [K in keyof Q]?: ReturnType<Q[K]['read']> };

/** Reads the declared parameters present in `query`, in declaration order (the first malformed one answers). */
export function readQuery<Q extends QueryParams>(params: Q, query: Readonly<Record<string, string>>): ParsedQuery<Q> {
  const out: Record<string, unknown> = {};
  for (const [name, param] of Object.entries(params)) {
    const raw = Object.hasOwn(query, name) ? query[name] : undefined;
    if (raw !== undefined) out[name] = param.read(raw);
  }
  return out as ParsedQuery<Q>;
}
