/**
 * The offline model's JSON example (functions/chat/adapters/offline-json-example.ts): what it gives as tool
 * arguments and as a structured answer must be valid against the schema it was built from, checked both
 * by ajv (an independent validator) and by the platform's own check (jsonSchemaProblems).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exampleOf } from '../../functions/chat/adapters/offline-json-example';
import { jsonSchemaProblems } from '../../functions/chat/domain/json-schema-check';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

type Schema = Record<string, unknown>;

function expectValid(schema: Schema, value: unknown): void {
  const validate = ajv.compile(schema);
  expect(validate(value), `${JSON.stringify(value)} against ${JSON.stringify(schema)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  expect(jsonSchemaProblems(schema, value), JSON.stringify(value)).toEqual([]);
}

const FORMATS = ['date-time', 'date', 'time', 'email', 'uri', 'uuid', 'hostname', 'ipv4', 'ipv6'] as const;
const DEF_NAMES = ['address', 'money', 'tag'] as const;

/** Optional keyword: present or absent. */
const maybe = <T>(key: string, arb: fc.Arbitrary<T>): fc.Arbitrary<Record<string, T>> =>
  fc.option(arb, { nil: undefined }).map((v) => (v === undefined ? {} : { [key]: v }));

const stringSchema: fc.Arbitrary<Schema> = fc.oneof(
  fc.tuple(fc.option(fc.nat({ max: 20 }), { nil: undefined }), fc.option(fc.nat({ max: 20 }), { nil: undefined })).map(([min, extra]) => ({
    type: 'string',
    ...(min !== undefined ? { minLength: min } : {}),
    // A maximum never below the minimum (the schema stays satisfiable).
    ...(extra !== undefined ? { maxLength: (min ?? 0) + extra } : {}),
  })),
  fc.constantFrom(...FORMATS).map((format) => ({ type: 'string', format })),
);

const numberSchema: fc.Arbitrary<Schema> = fc
  .tuple(
    fc.constantFrom('number', 'integer'),
    fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: undefined }),
    fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
    fc.boolean(),
  )
  .map(([type, min, span, quarter]) => {
    // A number's bounds may be fractional; an integer's are whole.
    const scale = type === 'number' && quarter ? 0.25 : 1;
    return {
      type,
      ...(min !== undefined ? { minimum: min * scale } : {}),
      ...(span !== undefined ? { maximum: (min ?? 0) * scale + span } : {}),
    };
  });

const leafSchema: fc.Arbitrary<Schema> = fc.oneof(
  stringSchema,
  numberSchema,
  fc.constant({ type: 'boolean' }),
  fc
    .uniqueArray(fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null)), { minLength: 1, maxLength: 4 })
    .map((values) => ({ enum: values })),
  fc.jsonValue({ maxDepth: 2 }).map((value) => ({ const: value })),
  fc.constant({ type: ['string', 'null'] }),
  fc.constantFrom(...DEF_NAMES).map((name) => ({ $ref: `#/$defs/${name}` })),
);

const { schema } = fc.letrec<{ schema: Schema; object: Schema; array: Schema; anyOf: Schema }>((tie) => ({
  schema: fc.oneof({ maxDepth: 3, depthIdentifier: 'schema' }, leafSchema, tie('object'), tie('array'), tie('anyOf')),
  object: fc
    .tuple(
      fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,8}$/), tie('schema'), { maxKeys: 4 }),
      fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      fc.boolean(),
      fc.array(fc.stringMatching(/^[A-Z][a-z]{0,5}$/), { maxLength: 2 }),
    )
    .map(([properties, picks, closed, undeclared]) => ({
      type: 'object',
      properties,
      // Some declared properties required; a closed object requires only declared ones.
      required: [...Object.keys(properties).filter((_, i) => picks[i]), ...(closed ? [] : undeclared)],
      ...(closed ? { additionalProperties: false } : {}),
    })),
  array: fc
    .tuple(tie('schema'), fc.option(fc.nat({ max: 3 }), { nil: undefined }), fc.option(fc.nat({ max: 3 }), { nil: undefined }))
    .map(([items, min, extra]) => ({
      type: 'array',
      items,
      ...(min !== undefined ? { minItems: min } : {}),
      ...(extra !== undefined ? { maxItems: Math.max(1, (min ?? 0) + extra) } : {}),
    })),
  anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((options) => ({ anyOf: options })),
}));

/** The definitions a `$ref` of the grammar points to: plain schemas, one of them nested. */
const defs: fc.Arbitrary<Schema> = fc.record({
  address: fc.constant({
    type: 'object',
    properties: { street: { type: 'string', minLength: 3 }, zip: { type: 'string', format: 'uuid' }, floor: { type: 'integer', minimum: -2, maximum: 90 } },
    required: ['street', 'zip'],
    additionalProperties: false,
  }),
  money: numberSchema,
  tag: fc.oneof(
    stringSchema,
    leafSchema.filter((s) => !('$ref' in s)),
  ),
});

describe('exampleOf: property-based against generated schemas', () => {
  it('is valid (ajv and the platform check) for every schema of the grammar', () => {
    fc.assert(
      fc.property(schema, defs, maybe('description', fc.string({ maxLength: 10 })), (root, $defs, extra) => {
        const full = { ...root, ...extra, $defs };
        expectValid(full, exampleOf(full));
      }),
      { seed: 42, numRuns: 400 },
    );
  });

  it('is deterministic: the same schema gives the same value', () => {
    fc.assert(
      fc.property(schema, defs, (root, $defs) => {
        const full = { ...root, $defs };
        expect(exampleOf(full)).toEqual(exampleOf(structuredClone(full)));
      }),
      { seed: 7, numRuns: 100 },
    );
  });
});

describe('exampleOf: the documented rules', () => {
  it('takes const, the first enum value, the first non-null option of anyOf/oneOf, and merges allOf fragments', () => {
    expect(exampleOf({ const: { a: [1] } })).toEqual({ a: [1] });
    expect(exampleOf({ enum: ['b', 'a'] })).toBe('b');
    expect(exampleOf({ anyOf: [{ type: 'null' }, { type: 'integer', minimum: 4 }] })).toBe(4);
    expect(exampleOf({ oneOf: [{ type: 'boolean' }, { type: 'string' }] })).toBe(true);
    const allOf = {
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } } },
        { type: 'object', properties: { b: { type: 'integer' } } },
      ],
    };
    expect(exampleOf(allOf)).toEqual({ a: 'example', b: 1 });
    expectValid(allOf, exampleOf(allOf));
  });

  it('fills every declared property and every required one', () => {
    expect(exampleOf({ type: 'object', properties: { a: { type: 'boolean' } }, required: ['b'] })).toEqual({ a: true, b: 'example' });
    expect(exampleOf({ type: 'object', required: ['n'], additionalProperties: { type: 'integer', minimum: 5 } })).toEqual({ n: 5 });
    // `properties` alone makes an object.
    expect(exampleOf({ properties: { a: { type: 'null' } } })).toEqual({ a: null });
  });

  it('honours lengths, bounds and item counts', () => {
    expect(exampleOf({ type: 'string', minLength: 10 })).toBe('examplexxx');
    expect(exampleOf({ type: 'string', maxLength: 3 })).toBe('exa');
    expect(exampleOf({ type: 'integer', minimum: 2.5 })).toBe(3);
    expect(exampleOf({ type: 'integer', exclusiveMinimum: 7 })).toBe(8);
    expect(exampleOf({ type: 'number', maximum: -3 })).toBe(-3);
    expect(exampleOf({ type: 'integer', minimum: 1, multipleOf: 5 })).toBe(5);
    expect(exampleOf({ type: 'array', items: { type: 'string' } })).toEqual(['example']);
    expect(exampleOf({ type: 'array', items: { type: 'boolean' }, minItems: 3 })).toEqual([true, true, true]);
    expect(exampleOf({ type: 'array', items: { type: 'boolean' }, maxItems: 0 })).toEqual([]);
    expect(exampleOf({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] })).toEqual(['example', 1]);
  });

  it('gives a valid value for each format it knows', () => {
    for (const format of FORMATS) expectValid({ type: 'string', format }, exampleOf({ type: 'string', format }));
  });

  it('follows local $refs (#/$defs, #/definitions, escaped names) and gives null for one it cannot follow', () => {
    expect(exampleOf({ $ref: '#/$defs/a', $defs: { a: { type: 'integer', minimum: 9 } } })).toBe(9);
    expect(exampleOf({ $ref: '#/definitions/a', definitions: { a: { const: 'x' } } })).toBe('x');
    expect(exampleOf({ type: 'object', properties: { p: { $ref: '#/$defs/a~1b' } }, $defs: { 'a/b': { const: 1 } } })).toEqual({ p: 1 });
    expect(exampleOf({ $ref: 'https://example.com/schema.json' })).toBeNull();
    expect(exampleOf({ $ref: '#/$defs/missing' })).toBeNull();
  });

  it('ends a self-reference at its depth bound instead of running forever', () => {
    expect(() => exampleOf({ $ref: '#' })).not.toThrow();
    expect(exampleOf({ $ref: '#' })).toBeNull();
  });

  it('gives null for what is no schema, and {} for a schema of no type', () => {
    expect(exampleOf(true)).toBeNull();
    expect(exampleOf(null)).toBeNull();
    expect(exampleOf({})).toEqual({});
  });

  // A recursive schema (OpenAI's own UI tree example) ends: inside the recursion only what is required is built.
  it('gives a valid value for a recursive schema (OpenAI’s UI tree example)', () => {
    const ui = {
      type: 'object',
      properties: {
        type: { type: 'string', enum: ['div', 'button', 'header'] },
        label: { type: 'string' },
        children: { type: 'array', items: { $ref: '#' } },
      },
      required: ['type', 'label', 'children'],
      additionalProperties: false,
    };
    expectValid(ui, exampleOf(ui));
  });

  // The platform's own check decides (ajv's multipleOf refuses 0.3 for 0.1 by floating point; the platform's does not).
  it('gives a valid value for a fractional multipleOf', () => {
    const price = { type: 'number', minimum: 0.3, multipleOf: 0.1 };
    expect(exampleOf(price)).toBe(0.3);
    expect(jsonSchemaProblems(price, exampleOf(price))).toEqual([]);
  });
});
