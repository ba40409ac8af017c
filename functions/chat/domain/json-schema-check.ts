/**
 * Checks a JSON value against a client's JSON Schema (a function tool's parameters, a structured-output
 * schema). The schema comes from a request, so nothing about it is trusted: a schema that cannot be
 * applied (a `$ref` loop, a pattern that is no regular expression) is reported, never thrown.
 */
import { Validator } from '@cfworker/json-schema';

/** At most this many problems are named in an error message. */
const MAX_PROBLEMS = 5;

/** The problems of `value` against `schema`, one readable line each; empty when it is valid. */
export function jsonSchemaProblems(schema: Record<string, unknown>, value: unknown): string[] {
  try {
    const result = new Validator(schema as never, draftOf(schema), false).validate(value);
    if (result.valid) return [];
    // The deepest errors say what is wrong; the wrappers ("properties", "allOf") only say where.
    const leaves = result.errors.filter((e) => !['properties', 'allOf', 'anyOf', 'items', 'prefixItems', '$ref'].includes(e.keyword));
    return (leaves.length ? leaves : result.errors).slice(0, MAX_PROBLEMS).map((e) => `${e.instanceLocation || '#'}: ${e.error}`);
  } catch (err) {
    return [`the schema cannot be applied: ${err instanceof RangeError ? 'it refers to itself without end' : (err as Error).message}`];
  }
}

/** The draft a schema declares with `$schema` (clients' generators write draft-07); 2020-12 when it names none. */
function draftOf(schema: Record<string, unknown>): '4' | '7' | '2019-09' | '2020-12' {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-06') || declared.includes('draft-07')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/** The JSON value a text holds: the whole text, or the body of one fenced code block around it; undefined when none. */
export function parseJsonAnswer(text: string): { readonly value: unknown; readonly json: string } | undefined {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text);
  const json = fenced ? fenced[1]! : text;
  try {
    return { value: JSON.parse(json), json };
  } catch {
    return undefined;
  }
}
