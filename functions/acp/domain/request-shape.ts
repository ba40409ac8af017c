/**
 * The small vocabulary area C's request checks are written in: each check takes a JSON value and the
 * JSONPath (RFC 9535) it was found at, and throws the ACP 400 naming what is wrong. Objects are read by
 * their own properties only (a body parsed by JSON.parse can carry `__proto__`, `constructor` or
 * `toString` as plain keys): a member name is never looked up on Object.prototype, so such a key is an
 * unknown field like any other.
 */
import { DomainError } from '../../platform/domain/errors';

/** A 400 in the ACP `Error` shape, with the ACP code and the JSONPath of the field at fault. */
export function invalid(code: string, message: string, param?: string): DomainError {
  return new DomainError('bad_request', message, code, param);
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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

/** Checks one JSON value found at `at`; throws the 400 naming what is wrong. */
export type Check = (value: unknown, at: string) => void;

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
  return (v, at) => {
    if (typeof v !== 'string') throw invalid('invalid', `${label(at)} must be a string`, at);
    if (rules.nonEmpty && v.length === 0) throw invalid('invalid', `${label(at)} must not be empty`, at);
    if (rules.max !== undefined && v.length > rules.max) throw invalid('invalid', `${label(at)} must be at most ${rules.max} characters`, at);
    if (rules.oneOf && !rules.oneOf.includes(v)) throw invalid('invalid', `${label(at)} must be one of: ${rules.oneOf.join(', ')}`, at);
    if (rules.format === 'date-time' && (!RFC3339.test(v) || Number.isNaN(Date.parse(v))))
      throw invalid('invalid', `${label(at)} must be an RFC 3339 date-time`, at);
    if (rules.format === 'email' && !EMAIL.test(v)) throw invalid('invalid', `${label(at)} must be an email address`, at);
  };
}

export function integer(min?: number): Check {
  return (v, at) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw invalid('invalid', `${label(at)} must be an integer`, at);
    if (min !== undefined && v < min) throw invalid('invalid', `${label(at)} must be at least ${min}`, at);
  };
}

export const boolean: Check = (v, at) => {
  if (typeof v !== 'boolean') throw invalid('invalid', `${label(at)} must be a boolean`, at);
};

/** Any object, not looked into: for hints this platform neither reads nor stores. */
export const anyObject: Check = (v, at) => {
  if (!isRecord(v)) throw invalid('invalid', `${label(at)} must be an object`, at);
};

export function arrayOf(item: Check): Check {
  return (v, at) => {
    if (!Array.isArray(v)) throw invalid('invalid', `${label(at)} must be an array`, at);
    v.forEach((entry, i) => {
      item(entry, `${at}[${i}]`);
    });
  };
}

/** ACP's flat metadata maps: any key, each value a string, a number or a boolean. */
export const scalarMap: Check = (v, at) => {
  anyObject(v, at);
  for (const [k, value] of Object.entries(v as Record<string, unknown>)) {
    if (!['string', 'number', 'boolean'].includes(typeof value))
      throw invalid('invalid', `${label(memberPath(at, k))} must be a string, a number or a boolean`, memberPath(at, k));
  }
};

/** The first check that passes; otherwise the error of the last one. */
export function either(...checks: readonly Check[]): Check {
  return (v, at) => {
    for (const [i, check] of checks.entries()) {
      try {
        return check(v, at);
      } catch (err) {
        if (i === checks.length - 1) throw err;
      }
    }
  };
}

interface ObjectRules {
  readonly required?: readonly string[];
  /** Unknown members are ignored instead of refused (only where ACP says so for forward compatibility). */
  readonly open?: boolean;
  /** Rules across members, run once each member passed its own check. */
  readonly also?: (value: Record<string, unknown>, at: string) => void;
}

/**
 * An object with known members (ACP's `additionalProperties: false` objects unless `open`): each own
 * member must be known and pass its check, each required one must be there.
 */
export function object(fields: Readonly<Record<string, Check>>, rules: ObjectRules = {}): Check {
  const known = new Map(Object.entries(fields));
  return (v, at) => {
    if (!isRecord(v)) throw invalid('invalid', `${label(at)} must be an object`, at);
    for (const [k, value] of Object.entries(v)) {
      const check = known.get(k);
      if (check) check(value, memberPath(at, k));
      else if (!rules.open) throw invalid('invalid', `Unknown field: ${label(memberPath(at, k))}`, memberPath(at, k));
    }
    for (const name of rules.required ?? []) {
      if (!Object.hasOwn(v, name)) throw invalid('missing', `${label(memberPath(at, name))} is required`, memberPath(at, name));
    }
    rules.also?.(v, at);
  };
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
  return (v, at) => walk(v, at, 0);
}

/** A fresh plain object of the listed own members of `obj` (what is kept of a checked request object). */
export function pick(obj: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (Object.hasOwn(obj, k)) out[k] = obj[k];
  return out;
}
