/**
 * JSON values from the document's JSON Schemas: valid instances (the base bodies) and, for each place
 * in one, the values of every other JSON type (the mutations). Sizes are kept small on purpose: the
 * base request should be valid and cheap; the hostile part is added by the mutation, one at a time.
 */
import fc from 'fast-check';
import type { JsonSchema } from './openapi-model';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Values the platform must know (a real product, the app's model name), by JSON path (`a.b`, `a[].b`). */
export type Hints = Readonly<Record<string, Json>>;

function stringArb(schema: JsonSchema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'uri':
      return fc.constant('https://example.com/');
    default: {
      const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const maxLength = Math.max(minLength, Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 12, 12));
      return fc.string({ minLength, maxLength });
    }
  }
}

function numberBounds(schema: JsonSchema): { min: number; max: number } {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
  const max = typeof schema.maximum === 'number' ? Math.min(schema.maximum, min + 1000) : min + 2000;
  return { min, max };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz_'.split('');
/** A plain identifier (record keys such as chat variable names). */
const NAME = fc.tuple(fc.constantFrom(...LETTERS), fc.string({ unit: fc.constantFrom(...LETTERS, ...'0123456789'), maxLength: 8 })).map(([a, b]) => a + b);

/** Valid instances of `schema`; a hint replaces the generated value at its path. */
export function validArb(schema: JsonSchema, hints: Hints = {}, path = ''): fc.Arbitrary<Json> {
  if (path in hints) return fc.constant(hints[path]!);
  if ('const' in schema) return fc.constant(schema.const as Json);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as Json[]));
  const { anyOf, oneOf, ...own } = schema;
  const alternatives = (anyOf ?? oneOf) as JsonSchema[] | undefined;
  // An alternative adds to the schema's own keywords (`{type, properties, anyOf: [{required: [a]}, {required: [b]}]}`).
  if (alternatives) {
    const required = (s: JsonSchema) => (s.required ?? []) as string[];
    return fc.oneof(...alternatives.map((s) => validArb({ ...own, ...s, required: [...required(own), ...required(s)] }, hints, path)));
  }
  switch (schema.type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      const fields = Object.entries(props).map(([name, s]) => {
        const value = validArb(s, hints, path ? `${path}.${name}` : name);
        // Optional fields appear now and then, so the base stays close to the minimal valid request.
        return required.has(name) || `${path ? `${path}.` : ''}${name}` in hints
          ? value.map((v) => [[name, v]] as [string, Json][])
          : fc.oneof(
              { weight: 3, arbitrary: fc.constant([] as [string, Json][]) },
              { weight: 1, arbitrary: value.map((v) => [[name, v]] as [string, Json][]) },
            );
      });
      const extra =
        typeof schema.additionalProperties === 'object' && !Object.keys(props).length
          ? fc.dictionary(NAME, validArb(schema.additionalProperties as JsonSchema, hints, `${path}.*`), { maxKeys: 2 })
          : fc.constant({});
      return fc.tuple(fc.tuple(...fields), extra).map(([pairs, more]) => ({ ...(more as Record<string, Json>), ...Object.fromEntries(pairs.flat()) }));
    }
    case 'array': {
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength = Math.max(minLength, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 2, 2));
      return fc.array(validArb((schema.items ?? {}) as JsonSchema, hints, `${path}[]`), { minLength, maxLength });
    }
    case 'string':
      return stringArb(schema);
    case 'integer':
      return fc.integer(numberBounds(schema));
    case 'number': {
      const { min, max } = numberBounds(schema);
      return fc.integer({ min: min * 100, max: max * 100 }).map((n) => n / 100);
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.constant('x');
  }
}

export type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

export function jsonType(v: Json | undefined): JsonType | undefined {
  if (v === undefined) return undefined;
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v as JsonType;
}

/** One value of each JSON type, and hostile values within a type. */
// biome-ignore lint/correctness/noPrecisionLoss: 2^53 + 1 is the point: a number JSON carries that a double cannot hold.
const SAMPLES: readonly Json[] = [null, true, false, 0, -1, 1.5, 1e308, -0.000001, 9007199254740993, '', 'x', '0', 'null', [], [1, 'a'], {}, { a: 1 }];
export const EDGE_VALUES: readonly Json[] = [
  '',
  ' ',
  '\u0000',
  '\u202e',
  '\ud800',
  'é'.repeat(50),
  '__proto__',
  -1,
  0,
  2 ** 53,
  1e-300,
  -1e308,
  [[]],
  [null],
  { '': null },
];

/** Values of a JSON type other than the current one (an absent place gets every type). */
export function wrongTypeValues(current: Json | undefined): Json[] {
  const type = jsonType(current);
  return SAMPLES.filter((v) => jsonType(v) !== type);
}

export type JsonPath = readonly (string | number)[];

/** Every place in `value` (not the root), with the places the schema declares but the value lacks. */
export function placesOf(value: Json, schema: JsonSchema, at: JsonPath = []): JsonPath[] {
  const out: JsonPath[] = [];
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push([...at, i], ...placesOf(v, (schema.items ?? {}) as JsonSchema, [...at, i]));
    });
  } else if (value && typeof value === 'object') {
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const name of new Set([...Object.keys(value), ...Object.keys(props)])) {
      out.push([...at, name]);
      if (name in value) out.push(...placesOf(value[name]!, props[name] ?? {}, [...at, name]));
    }
  }
  return out;
}

export function getAt(value: Json, path: JsonPath): Json | undefined {
  let v: Json | undefined = value;
  for (const key of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, Json>)[key] : undefined;
  return v;
}

/**
 * A copy of `value` with `path` set (or removed when `next` is undefined). Keys are set as own
 * properties, so `__proto__` and `constructor` end up in the serialized JSON as keys, not as prototypes.
 */
export function setAt(value: Json, path: JsonPath, next: Json | undefined): Json {
  if (!path.length) return next ?? null;
  const [key, ...rest] = path;
  const copy: Json = Array.isArray(value) ? [...value] : value && typeof value === 'object' ? { ...value } : typeof key === 'number' ? [] : {};
  const child = (copy as Record<string | number, Json>)[key!];
  const updated = rest.length ? setAt(child ?? {}, rest, next) : next;
  if (updated === undefined) delete (copy as Record<string | number, Json>)[key!];
  else Object.defineProperty(copy, key!, { value: updated, enumerable: true, writable: true, configurable: true });
  return copy;
}

export function pathText(path: JsonPath): string {
  return path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('') || '(root)';
}
