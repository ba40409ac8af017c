/**
 * A value valid against a JSON Schema, built deterministically from the schema alone: what the offline
 * model gives as tool arguments and as a structured answer. It honours the usual keywords (types,
 * `const`, `enum`, `required` and every declared property, bounds, lengths, item counts, formats,
 * `anyOf`/`oneOf`/`allOf`, local `$ref`s); a `pattern` it cannot satisfy makes a value the platform's
 * check then refuses, as it would refuse a real model's.
 */
import { atPointer } from '../domain/json-schema-check';

const MAX_DEPTH = 12;

type Schema = Record<string, unknown>;

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A local reference (`#/$defs/x`, `#/definitions/x`, `#`) of the root schema. */
function resolve(root: Schema, ref: string): Schema | undefined {
  const node = atPointer(root, ref);
  return isSchema(node) ? node : undefined;
}

const FORMATS: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00.000Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

function typeOf(schema: Schema): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return (t.find((x) => x !== 'null') ?? t[0]) as string | undefined;
  if (isSchema(schema.properties)) return 'object';
  if (schema.items !== undefined || schema.prefixItems !== undefined) return 'array';
  return undefined;
}

function num(schema: Schema, integer: boolean): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const exMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : undefined;
  let v = min ?? (exMin !== undefined ? exMin + 1 : max !== undefined ? Math.min(max, 1) : 1);
  if (integer) v = Math.ceil(v);
  const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  if (step) {
    // Rounded to the step's own decimals: 3 × 0.1 is 0.3, not 0.30000000000000004.
    const decimals = Math.min(20, (String(step).split('.')[1] ?? '').length);
    v = Number((Math.ceil(v / step - 1e-9) * step).toFixed(decimals));
  }
  return v;
}

/** Lengths and counts a schema asks for are honoured up to this; a hostile minimum gets a value the check refuses. */
const MAX_SIZE = 10_000;

function str(schema: Schema): string {
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  let v = format ?? 'example';
  const min = typeof schema.minLength === 'number' ? Math.min(schema.minLength, MAX_SIZE) : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  if (v.length < min) v += 'x'.repeat(min - v.length);
  if (max !== undefined && v.length > max) v = v.slice(0, Math.max(0, max));
  return v;
}

interface Walk {
  readonly root: Schema;
  /** Values still to build: a schema that fans out without end gets nulls past it. */
  budget: number;
}

/**
 * A value for `schema`. Inside a recursion (a `$ref` met again on the way down) only what the schema
 * requires is built: required properties, the minimum number of items, so a tree schema ends.
 */
export function exampleOf(schema: unknown): unknown {
  return build(schema, { root: isSchema(schema) ? schema : {}, budget: MAX_SIZE }, [], 0);
}

function build(schema: unknown, walk: Walk, refs: readonly string[], depth: number): unknown {
  if (!isSchema(schema) || depth > MAX_DEPTH || walk.budget-- <= 0) return null;
  const minimal = refs.length !== new Set(refs).size;
  const sub = (s: unknown, extraRef?: string) => build(s, walk, extraRef ? [...refs, extraRef] : refs, depth + 1);
  if (typeof schema.$ref === 'string') {
    const target = resolve(walk.root, schema.$ref);
    return target ? sub(target, schema.$ref) : null;
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (Array.isArray(schema.allOf) && schema.allOf.length) {
    // The parts of an allOf are usually object fragments: their examples are merged.
    const parts = schema.allOf.map((s) => sub(s));
    if (!parts.every(isSchema)) return parts[0];
    const own = isSchema(schema.properties) ? sub({ ...schema, allOf: undefined }) : {};
    return Object.assign({}, ...parts, own);
  }
  const choice = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined) as unknown[] | undefined;
  if (choice?.length) {
    // Inside a recursion a null or non-reference branch ends it; elsewhere the first non-null branch.
    const ending = minimal ? choice.find((s) => isSchema(s) && (s.type === 'null' || s.$ref === undefined)) : undefined;
    return sub(ending ?? choice.find((s) => !(isSchema(s) && s.type === 'null')) ?? choice[0]);
  }
  switch (typeOf(schema)) {
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
      const out: Record<string, unknown> = {};
      for (const [name, s] of Object.entries(properties)) if (!minimal || required.includes(name)) out[name] = sub(s);
      for (const name of required) if (!(name in out)) out[name] = isSchema(schema.additionalProperties) ? sub(schema.additionalProperties) : 'example';
      return out;
    }
    case 'array': {
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
      const min = typeof schema.minItems === 'number' ? Math.min(schema.minItems, MAX_SIZE) : 0;
      const items = prefix.slice(0, minimal ? min : prefix.length).map((s) => sub(s));
      const each = isSchema(schema.items) ? schema.items : {};
      const wanted = minimal ? min : Math.max(min, prefix.length ? 0 : 1);
      while (items.length < wanted && walk.budget > 0) items.push(sub(each));
      return typeof schema.maxItems === 'number' ? items.slice(0, schema.maxItems) : items;
    }
    case 'string':
      return str(schema);
    case 'integer':
      return num(schema, true);
    case 'number':
      return num(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}
