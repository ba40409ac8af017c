/**
 * The judge of one answer, as a pure function: (a) no 5xx but a documented 503; (b) a status the
 * operation documents or the router's own answer for the request; (c) a JSON body in the documented
 * schema for that status, else in the area's error shape; and an answer at all. Liveness (d) is the
 * run loop's probe. Where the target can be read two ways (`..`, absolute-form, `//`), either reading
 * may explain the answer: the router may normalize the path or not.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { HostileRequest } from './hostile-request';
import {
  areaOf,
  contractStatuses,
  isReference,
  operationsAt,
  ROUTER_STATUSES,
  type ApiModel,
  type Area,
  type JsonSchema,
  type Operation,
} from './openapi-model';
import { headerValue, isAnswer, type NoAnswer, type RawAnswer } from './raw-http';

export type Rule = 'answer' | '5xx' | 'status' | 'allow' | 'body';

export interface Failure {
  readonly rule: Rule;
  readonly message: string;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function validator(schema: JsonSchema): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) compiled.set(schema, (v = ajv.compile(schema)));
  return v;
}

const str = { type: 'string' };
const ERROR_OBJECT: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: str, message: str } } },
};
const CHAT_ERROR: JsonSchema = { type: 'object', required: ['error'], properties: { error: str, message: str }, additionalProperties: false };
const ACP_RATE_LIMITED: JsonSchema = { type: 'object', required: ['error'], properties: { error: str } };
const ACP_ERROR: JsonSchema = {
  type: 'object',
  required: ['type', 'code', 'message'],
  properties: { type: { enum: ['invalid_request', 'request_not_idempotent', 'processing_error', 'service_unavailable'] }, code: str, message: str, param: str },
};

/** The router contract's error shape of an area for a status. */
export function areaShape(area: Area, status: number): JsonSchema {
  if (area === 'chat') return CHAT_ERROR;
  if (area === 'acp') return status === 401 || status === 403 ? ERROR_OBJECT : status === 429 ? ACP_RATE_LIMITED : ACP_ERROR;
  return ERROR_OBJECT;
}

/** The paths a target can name: as written, and as a WHATWG URL parser normalizes it. */
export function pathsOf(target: string): string[] {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(target);
  const raw = absolute ? absolute[1] || '/' : target.split(/[?#]/)[0]!;
  const out = new Set([raw]);
  try {
    out.add(new URL(target, 'http://local').pathname);
  } catch {
    // Not a URL a WHATWG parser accepts: only the raw reading.
  }
  return [...out];
}

interface Reading {
  readonly path: string;
  /** Operations of this method at the path (GET ones for HEAD). */
  readonly exact: readonly Operation[];
  /** Every operation at the path, any method. */
  readonly all: readonly Operation[];
  readonly allowed: ReadonlySet<number>;
}

function reading(model: ApiModel, method: string, path: string): Reading {
  const all = operationsAt(model, path);
  const exact = all.filter((o) => o.method === method || (method === 'HEAD' && o.method === 'GET'));
  const allowed = new Set(ROUTER_STATUSES);
  for (const op of exact) {
    for (const s of [...op.responses.keys(), ...contractStatuses(op)]) allowed.add(s);
    // A path parameter that cannot be decoded names no resource.
    if (op.pathParams.length) allowed.add(404);
  }
  if (all.length && (!exact.length || method === 'HEAD')) allowed.add(405);
  if (!all.length) allowed.add(404);
  return { path, exact, all, allowed };
}

function documentedSchema(r: Reading, status: number, contentType: string): JsonSchema | undefined {
  for (const op of r.exact) {
    const media = op.responses.get(status)?.[contentType];
    if (media) return media;
  }
  return undefined;
}

function checkBody(readings: readonly Reading[], status: number, answer: RawAnswer): Failure | undefined {
  const text = answer.body.toString('utf8');
  const contentType = (headerValue(answer, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const excerpt = JSON.stringify(text.slice(0, 300));
  if (status < 400) {
    // A success: documented (checked before) with this media type; JSON ones must match their schema.
    const schemas = readings.map((r) => documentedSchema(r, status, contentType)).filter((s) => s !== undefined);
    if (!schemas.length) return { rule: 'body', message: `${status} with Content-Type ${contentType || '(none)'}, not a documented media type` };
    if (contentType !== 'application/json') return undefined;
  } else if (contentType !== 'application/json') {
    return { rule: 'body', message: `${status} with Content-Type ${contentType || '(none)'}, expected application/json; body ${excerpt}` };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { rule: 'body', message: `${status} body is not JSON: ${excerpt}` };
  }
  const candidates = readings.map((r) => ({ r, schema: documentedSchema(r, status, 'application/json') ?? areaShape(areaOf(r.path), status) }));
  const errors: string[] = [];
  for (const { r, schema } of candidates) {
    const validate = validator(schema);
    if (validate(body)) return undefined;
    const what = r.exact.some((o) => o.responses.has(status))
      ? `the documented ${status} schema of ${r.exact.map((o) => o.id).join('/')}`
      : `the ${areaOf(r.path)} error shape`;
    errors.push(`${what}: ${ajv.errorsText(validate.errors)}`);
  }
  return { rule: 'body', message: `${status} body ${excerpt} does not match ${errors.join('; nor ')}` };
}

function checkAllow(readings: readonly Reading[], method: string, answer: RawAnswer): Failure | undefined {
  const allow = headerValue(answer, 'allow');
  if (allow === undefined) return { rule: 'allow', message: '405 without an Allow header' };
  // Methods are case-sensitive: `get` is not GET.
  const listed = new Set(allow.split(',').map((m) => m.trim()));
  const routed = readings.filter((r) => r.all.length);
  if (routed.length && !routed.some((r) => r.all.every((o) => listed.has(o.method)))) {
    const missing = routed[0]!.all.map((o) => o.method).filter((m) => !listed.has(m));
    return { rule: 'allow', message: `405 Allow: ${allow} does not list ${missing.join(', ')}` };
  }
  if (listed.has(method)) return { rule: 'allow', message: `405 for ${method} with Allow: ${allow}, which lists it` };
  return undefined;
}

export function judge(model: ApiModel, req: HostileRequest, answer: RawAnswer | NoAnswer): Failure | undefined {
  if (!isAnswer(answer)) return req.abandon ? undefined : { rule: 'answer', message: answer.error };
  const { status } = answer;
  const paths = pathsOf(req.target);
  if (paths.some(isReference)) return status >= 500 ? { rule: '5xx', message: `${status} from the API reference` } : undefined;
  const readings = paths.map((p) => reading(model, req.method, p));
  if (status >= 500) {
    const documented503 = status === 503 && readings.some((r) => r.exact.some((o) => o.responses.has(503)));
    if (!documented503) return { rule: '5xx', message: `${status}: ${JSON.stringify(answer.body.toString('utf8').slice(0, 300))}` };
  }
  // A documented 429 can answer any request of the operation first: the rate limit counts before anything else is judged.
  const rateLimited = status === 429 && readings.some((r) => r.exact.some((o) => o.responses.has(429)));
  if (req.expect) {
    if (!req.expect.includes(status) && !rateLimited)
      return { rule: 'status', message: `${status}, the router contract says ${[...new Set(req.expect)].join(' or ')}` };
  } else if (!readings.some((r) => r.allowed.has(status))) {
    const ops = [...new Set(readings.flatMap((r) => r.exact.map((o) => o.id)))];
    const allowed = [...new Set(readings.flatMap((r) => [...r.allowed]))].sort();
    return {
      rule: 'status',
      message: `${status} is neither documented${ops.length ? ` for ${ops.join('/')}` : ''} nor a router answer here (allowed: ${allowed.join(', ')})`,
    };
  }
  // The router's 405 names the methods the path takes; an operation's own 405 (a checkout in the wrong state) need not.
  if (status === 405 && !readings.some((r) => r.exact.some((o) => o.responses.has(405)))) {
    const failure = checkAllow(readings, req.method, answer);
    if (failure) return failure;
  }
  if (req.method === 'HEAD' || status === 204 || status === 304) return undefined;
  return checkBody(readings, status, answer);
}
