/**
 * The small vocabulary area C's request checks are written in: each check is a request rule
 * (functions/kernel/domain/request-rule.ts) that reads a JSON value at the JSONPath (RFC 9535) it
 * was found at, and throws the ACP 400 naming what is wrong. Objects are read by
 * their own properties only (a body parsed by JSON.parse can carry `__proto__`, `constructor` or
 * `toString` as plain keys): a member name is never looked up on Object.prototype, so such a key is an
 * unknown field like any other. Each check carries the JSON Schema of what it accepts, so the OpenAPI
 * document shows area C's request bodies from these very checks (rules across members, which JSON
 * Schema cannot say, are in the checks' messages only).
 */
import { DomainError } from '../../kernel/domain/errors';
import type { JsonSchema } from '../../kernel/domain/json-schema';
import { isRecord, rule, type Rule } from '../../kernel/domain/request-rule';

/** A 400 in the ACP `Error` shape, with the ACP code and the JSONPath of the field at fault. */
export function invalid(code: string, message: string, param?: string): DomainError {
  return new DomainError('bad_request', message, code, param);
}

/** The member's value if the object has it as its own property; never an inherited one. */
export function own(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Echoed names are cut short: a key is client input of any length. */
const MAX_NAME_ECHO = 64;
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The JSONPath of `key` under `at`: `$.a.b` for plain names, `$.a['b c']` (RFC 9535 escapes) for any other. */
export function memberPath(at: string, key: string): string {
  const name = Array.from(key).slice(0, MAX_NAME_ECHO).join('');
  if (PLAIN_NAME.test(name)) return `${at}.${name}`;
  const escaped = name.replace(/[\\'\u0000-\u001f]/g, (c) => (c === '\\' || c === "'" ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  return `${at}['${escaped}']`;
}

/** How a path reads in a message: `payment_data.instrument.type`. */
export function label(at: string): string {
  return at === '$' ? 'the request body' : at.replace(/^\$\.?/, '');
}

export type { JsonSchema };

/** Checks one JSON value found at `at` (`$` when not said); throws the 400 naming what is wrong. `schema` says what it accepts. */
export type Check = Rule<unknown, void>;

/** A check from its function and the schema of what it accepts. */
export function check(fn: (value: unknown, at: string) => void, schema: JsonSchema): Check {
  return rule(schema, (value, at = '$') => fn(value, at));
}

/** The same check, with what the document says of it. */
export function described(c: Check, description: string): Check {
  return check((v, at) => c.read(v, at), { ...c.schema, description });
}

/** A field the use case that acts on it checks (its messages are the use case's); `schema` is what it takes. */
export function actedOn(schema: JsonSchema): Check {
  return check(() => undefined, schema);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
export const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

interface StringRules {
  readonly max?: number;
  readonly nonEmpty?: boolean;
  /** The enum of the ACP field (extensible enums are left as plain strings). */
  readonly oneOf?: readonly string[];
  readonly format?: 'date-time' | 'email';
}

export function string(rules: StringRules = {}): Check {
  const schema = {
    type: 'string',
    ...(rules.nonEmpty ? { minLength: 1 } : {}),
    ...(rules.max !== undefined ? { maxLength: rules.max } : {}),
    ...(rules.oneOf ? { enum: [...rules.oneOf] } : {}),
    ...(rules.format ? { format: rules.format } : {}),
  };
  return check((v, at) => {
    if (typeof v !== 'string') throw invalid('invalid', `${label(at)} must be a string`, at);
    if (rules.nonEmpty && v.length === 0) throw invalid('invalid', `${label(at)} must not be empty`, at);
    if (rules.max !== undefined && v.length > rules.max) throw invalid('invalid', `${label(at)} must be at most ${rules.max} characters`, at);
    if (rules.oneOf && !rules.oneOf.includes(v)) throw invalid('invalid', `${label(at)} must be one of: ${rules.oneOf.join(', ')}`, at);
    if (rules.format === 'date-time' && (!RFC3339.test(v) || Number.isNaN(Date.parse(v))))
      throw invalid('invalid', `${label(at)} must be an RFC 3339 date-time`, at);
    if (rules.format === 'email' && !EMAIL.test(v)) throw invalid('invalid', `${label(at)} must be an email address`, at);
  }, schema);
}

export function integer(min?: number): Check {
  return check(
    (v, at) => {
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw invalid('invalid', `${label(at)} must be an integer`, at);
      if (min !== undefined && v < min) throw invalid('invalid', `${label(at)} must be at least ${min}`, at);
    },
    { type: 'integer', ...(min !== undefined ? { minimum: min } : {}) },
  );
}

export const boolean: Check = check(
  (v, at) => {
    if (typeof v !== 'boolean') throw invalid('invalid', `${label(at)} must be a boolean`, at);
  },
  { type: 'boolean' },
);

/** Any object, not looked into: for hints this platform neither reads nor stores. */
export const anyObject: Check = check(
  (v, at) => {
    if (!isRecord(v)) throw invalid('invalid', `${label(at)} must be an object`, at);
  },
  { type: 'object' },
);

export function arrayOf(item: Check): Check {
  return check(
    (v, at) => {
      if (!Array.isArray(v)) throw invalid('invalid', `${label(at)} must be an array`, at);
      v.forEach((entry, i) => {
        item.read(entry, `${at}[${i}]`);
      });
    },
    { type: 'array', items: item.schema },
  );
}

/** ACP's flat metadata maps: any key, each value a string, a number or a boolean. */
export const scalarMap: Check = check(
  (v, at) => {
    anyObject.read(v, at);
    for (const [k, value] of Object.entries(v as Record<string, unknown>)) {
      if (!['string', 'number', 'boolean'].includes(typeof value))
        throw invalid('invalid', `${label(memberPath(at, k))} must be a string, a number or a boolean`, memberPath(at, k));
    }
  },
  { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
);

/** The first check that passes; otherwise the error of the last one. */
export function either(...checks: readonly Check[]): Check {
  return check(
    (v, at) => {
      for (const [i, c] of checks.entries()) {
        try {
          return c.read(v, at);
        } catch (err) {
          if (i === checks.length - 1) throw err;
        }
      }
    },
    { anyOf: checks.map((c) => c.schema) },
  );
}

interface ObjectRules {
  readonly required?: readonly string[];
  /** Unknown members are ignored instead of refused (only where ACP says so for forward compatibility). */
  readonly open?: boolean;
  /** Rules across members, run once each member passed its own check. */
  readonly also?: (value: Record<string, unknown>, at: string) => void;
  /** What the document says of the object (the rules across members, say). */
  readonly description?: string;
}

/**
 * An object with known members (ACP's `additionalProperties: false` objects unless `open`): each own
 * member must be known and pass its check, each required one must be there.
 */
export function object(fields: Readonly<Record<string, Check>>, rules: ObjectRules = {}): Check {
  const known = new Map(Object.entries(fields));
  const schema = {
    type: 'object',
    properties: Object.fromEntries(Object.entries(fields).map(([k, c]) => [k, c.schema])),
    ...(rules.required?.length ? { required: [...rules.required] } : {}),
    ...(rules.open ? {} : { additionalProperties: false }),
    ...(rules.description ? { description: rules.description } : {}),
  };
  return check((v, at) => {
    if (!isRecord(v)) throw invalid('invalid', `${label(at)} must be an object`, at);
    for (const [k, value] of Object.entries(v)) {
      const check = known.get(k);
      if (check) check.read(value, memberPath(at, k));
      else if (!rules.open) throw invalid('invalid', `Unknown field: ${label(memberPath(at, k))}`, memberPath(at, k));
    }
    for (const name of rules.required ?? []) {
      if (!Object.hasOwn(v, name)) throw invalid('missing', `${label(memberPath(at, name))} is required`, memberPath(at, name));
    }
    rules.also?.(v, at);
  }, schema);
}

/**
 * Keys a stored open object may not have: storage and its readers treat objects as plain dictionaries,
 * where `__proto__` sets a prototype instead of a member and `constructor` decides how a value is
 * marshalled (both turned a request into a 500).
 */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
/** The smallest magnitude DynamoDB stores; the largest kept here is the largest safe integer (beyond it digits are lost). */
const MIN_STORED_MAGNITUDE = 1e-130;

/** Free-form JSON that is stored as it came (ACP `metadata`): nesting, keys and numbers storage takes. */
export function storableJson(maxDepth: number): Check {
  const walk = (v: unknown, at: string, depth: number): void => {
    if (typeof v === 'number') {
      const magnitude = Math.abs(v);
      if (!Number.isFinite(v) || magnitude > Number.MAX_SAFE_INTEGER || (magnitude !== 0 && magnitude < MIN_STORED_MAGNITUDE)) {
        throw invalid('invalid', `${label(at)} must be a number from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`, at);
      }
    }
    if (typeof v !== 'object' || v === null) return;
    if (depth >= maxDepth) throw invalid('invalid', `${label(at)} nests deeper than ${maxDepth} levels`, at);
    if (Array.isArray(v)) {
      v.forEach((entry, i) => {
        walk(entry, `${at}[${i}]`, depth + 1);
      });
      return;
    }
    for (const [k, value] of Object.entries(v)) {
      if (PROTOTYPE_NAMES.has(k)) throw invalid('invalid', `${label(memberPath(at, k))}: this key name is reserved`, memberPath(at, k));
      walk(value, memberPath(at, k), depth + 1);
    }
  };
  return check((v, at) => walk(v, at, 0), {
    description: `Any JSON nested at most ${maxDepth} levels, numbers within ±${Number.MAX_SAFE_INTEGER}; keys named like Object.prototype members are refused`,
  });
}

/** A fresh plain object of the listed own members of `obj` (what is kept of a checked request object). */
export function pick(obj: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (Object.hasOwn(obj, k)) out[k] = obj[k];
  return out;
}
