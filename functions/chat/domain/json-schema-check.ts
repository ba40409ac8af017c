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

const JSON_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);
/** Keywords whose value is a schema, an array of schemas, or a map of names to schemas. */
const ONE = [
  'not',
  'if',
  'then',
  'else',
  'items',
  'additionalItems',
  'additionalProperties',
  'propertyNames',
  'contains',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const MANY = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Deeper than this a schema is refused (nothing a client generates comes near it). */
const MAX_SCHEMA_DEPTH = 64;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * What would keep the platform from applying a schema, or undefined: an unknown `type`, a `pattern`
 * (or a `patternProperties` name) that is no regular expression, a `$ref` that is not a local pointer
 * to a schema, a nesting deeper than 64, or a schema that refers to itself without end.
 */
export function jsonSchemaDefect(root: Record<string, unknown>): string | undefined {
  const walk = (node: unknown, at: string, depth: number): string | undefined => {
    if (typeof node === 'boolean') return undefined;
    if (!isObject(node)) return `${at} must be a schema (an object or a boolean)`;
    if (depth > MAX_SCHEMA_DEPTH) return `nested deeper than ${MAX_SCHEMA_DEPTH} levels`;
    const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
    const bad = types.find((t) => typeof t !== 'string' || !JSON_TYPES.has(t));
    if (bad !== undefined) return `${at}.type: ${JSON.stringify(bad)} is no JSON type`;
    for (const p of [
      ...(typeof node.pattern === 'string' ? [node.pattern] : []),
      ...(isObject(node.patternProperties) ? Object.keys(node.patternProperties) : []),
    ]) {
      try {
        new RegExp(p, 'u');
      } catch {
        return `${at}: the pattern ${JSON.stringify(p.slice(0, 100))} is no regular expression`;
      }
    }
    if (node.$ref !== undefined && (typeof node.$ref !== 'string' || !resolvesLocally(root, node.$ref))) {
      return `${at}.$ref ${JSON.stringify(node.$ref)} does not point to a schema in this document`;
    }
    for (const k of ONE)
      if (k in node && !(k === 'items' && Array.isArray(node[k]))) {
        const d = walk(node[k], `${at}.${k}`, depth + 1);
        if (d) return d;
      }
    for (const k of MANY)
      if (Array.isArray(node[k])) {
        for (const [i, sub] of (node[k] as unknown[]).entries()) {
          const d = walk(sub, `${at}.${k}[${i}]`, depth + 1);
          if (d) return d;
        }
      }
    for (const k of MAPS)
      if (isObject(node[k])) {
        for (const [name, sub] of Object.entries(node[k] as Record<string, unknown>)) {
          const d = walk(sub, `${at}.${k}.${name}`, depth + 1);
          if (d) return d;
        }
      }
    return undefined;
  };
  const defect = walk(root, '#', 0);
  if (defect) return defect;
  // A reference cycle that consumes no value (`{"$ref": "#"}`) only shows when a value is checked.
  const trial = jsonSchemaProblems(root, null).find((p) => p.startsWith('the schema cannot be applied'));
  return trial;
}

/** A JSON pointer into the document (`#`, `#/$defs/x`) that names a schema, or a plain-name anchor (`#node`). */
function resolvesLocally(root: Record<string, unknown>, ref: string): boolean {
  if (ref.startsWith('#') && ref !== '#' && !ref.startsWith('#/')) return /^#[A-Za-z_][\w.-]*$/.test(ref);
  const node = atPointer(root, ref);
  return isObject(node) || typeof node === 'boolean';
}

/** What a local JSON pointer (`#`, `#/$defs/x`) names in `root`; undefined for any other reference or a path that is not there. */
export function atPointer(root: Record<string, unknown>, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  try {
    for (const part of ref.slice(1).split('/').filter(Boolean)) {
      const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
      if (!isObject(node) || !(key in node)) return undefined;
      node = node[key];
    }
  } catch {
    return undefined;
  }
  return node;
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
