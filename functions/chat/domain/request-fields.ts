/**
 * The field-table vocabulary of area B's request bodies (chat completions and responses): each field
 * declared once as a rule (functions/kernel/domain/request-rule.ts) that reads the member and shows
 * its JSON Schema in the OpenAPI document. A field's rule sees the member's value in the body it came
 * in, for the few rules that look at a sibling.
 */
import { badRequest, notFound } from '../../kernel/domain/errors';
import type { JsonSchema } from '../../kernel/domain/json-schema';
import { rule, type Rule } from '../../kernel/domain/request-rule';

/** A 400 naming every field of `v` outside `allowed`. */
export function onlyKeys(v: Record<string, unknown>, allowed: readonly string[], where: string): void {
  const extra = Object.keys(v).filter((k) => !allowed.includes(k));
  if (extra.length) throw badRequest(`${where} has unsupported fields: ${extra.join(', ')}`);
}

export const present = (v: unknown) => v !== undefined && v !== null;

/** A member of a request body: its value, and the body it came in. */
export interface Member {
  readonly value: unknown;
  readonly body: Record<string, unknown>;
}

/** A field of a request: the rule that reads it and the JSON Schema the document shows. */
export type Field<T> = Rule<Member, T>;

export const field = <T>(schema: JsonSchema, read: (value: unknown, body: Record<string, unknown>) => T): Field<T> =>
  rule(schema, (m: Member) => read(m.value, m.body));

/** A parameter accepted so clients that send it by default keep working, with no effect here (README "Parameters"). */
export const ignored = (schema: JsonSchema, check: (v: unknown) => void) =>
  field({ ...schema, description: `Accepted and ignored${schema.description ? `: ${schema.description as string}` : ''}` }, (v) => {
    if (present(v)) check(v);
    return undefined;
  });

type Fields = Readonly<Record<string, Field<unknown>>>;

/** Reads a body's fields by name, each by its rule in `fields`. */
export function fieldReader<F extends Fields>(fields: F, body: Record<string, unknown>) {
  return <K extends keyof F & string>(name: K): ReturnType<F[K]['read']> => fields[name]!.read({ value: body[name], body }) as ReturnType<F[K]['read']>;
}

/** The JSON Schema of a request body, from the same field table the rules read (for the OpenAPI document). */
export function requestSchema(title: string, fields: Fields, required: readonly string[]): JsonSchema {
  return {
    type: 'object',
    title,
    properties: Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.schema])),
    required: [...required],
    additionalProperties: false,
  };
}

/** A `model` (a turn's, or the one GET /models/{model} names) other than the key's app's `appNameId` is a 404. */
export function requireKeyModel(model: string, appNameId: string): void {
  if (model !== appNameId) throw notFound(`Model not found: ${model.slice(0, 200)}`);
}

/**
 * After the fields that come first (the model and the messages or input): a `model` naming no app of
 * the key is a 404, then every name outside the table is a 400 naming them (no parameter is ignored
 * silently).
 */
export function requireAppAndKnownFields(body: Record<string, unknown>, fields: Readonly<Record<string, unknown>>, model: string, appNameId: string): void {
  requireKeyModel(model, appNameId);
  const unknown = Object.keys(body).filter((k) => !Object.hasOwn(fields, k));
  if (unknown.length) throw badRequest(`Unsupported parameter${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
}
