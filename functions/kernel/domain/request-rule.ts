/**
 * The atom every request declaration is made of: a rule that reads one value of a request (a path,
 * query or header parameter, a body, a member of a body) together with the JSON Schema of what it
 * accepts, so the OpenAPI document shows the rule the code runs. Area A's query parameters, area B's
 * body fields and area C's request checks are all rules; functions/kernel/http/request-declaration.ts
 * puts them together per operation.
 */
import type { JsonSchema } from './json-schema';

export type { JsonSchema };

/**
 * Reads a value into what the route works with, or throws the area's exact refusal. `at` says where the
 * value was found, for rules whose messages name the place (area C's JSONPath).
 */
export interface Rule<In, Out> {
  readonly schema: JsonSchema;
  read(value: In, at?: string): Out;
}

/** A rule from the schema of what it accepts and its reader. */
export function rule<In, Out>(schema: JsonSchema, read: (value: In, at?: string) => Out): Rule<In, Out> {
  return { schema, read };
}

/** A JSON object (not an array, not null): the one test every reader of request JSON starts from. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
