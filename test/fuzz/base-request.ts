/**
 * The valid base request of each operation, built from the document and the tenants' real credentials
 * and resources; every hostile request is one mutation of it (`render`), so what breaks is the mutated
 * aspect, not a missing key or an unknown id.
 */
import fc from 'fast-check';
import { png } from '../support/file-fixtures';
import { consoleHeaders, consolePathValue, consoleSessionOf, CONSOLE_REQUEST_HEADER, isConsole } from './console-tenant';
import { CALLBACK_HOST, type Tenant } from './credentials';
import type { BodySpec, HeaderLine, HostileClass, HostileRequest } from './hostile-request';
import { validArb, type Hints, type Json } from './json-schema-arb';
import type { ApiModel, Operation } from './openapi-model';

export interface FuzzContext {
  readonly model: ApiModel;
  readonly tenants: readonly Tenant[];
  /** The Host header of a well-formed request. */
  readonly hostHeader: string;
  readonly adminToken: string;
}

export type Pairs = readonly HeaderLine[];
/** Query pairs as written on the wire; a null value is a name without `=`. */
export type QueryPairs = readonly (readonly [string, string | null])[];

export interface Base {
  readonly op: Operation;
  readonly tenant: Tenant;
  readonly path: string;
  readonly query: QueryPairs;
  readonly headers: Pairs;
  /** The bearer credential the base sends, if the operation needs one. */
  readonly credential?: string;
  /** The console session its cookie names, on a console route (with the custom header). */
  readonly session?: string;
  readonly body?: { readonly contentType: string; readonly json?: Json; readonly bytes: string };
}

export const BOUNDARY = 'fuzz-boundary-7MA4YWxkTrZu0gW';
export const PNG = Buffer.from(png(2, 2)).toString('latin1');

export function multipartFile(content: string, fileName = 'pixel.png', name = 'file', type = 'image/png'): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n${content}\r\n`;
}

export const MULTIPART_END = `--${BOUNDARY}--\r\n`;

/** Admin routes that change or delete an app take the spare one: the tenant's own keeps its keys and settings. */
const SPARE_APP_OPS = new Set(['adminAppGet', 'adminAppUpdate', 'adminAppDelete']);

function pathValue(op: Operation, name: string, t: Tenant): string {
  const spare = isConsole(op) ? consolePathValue(op, name, t) : undefined;
  if (spare !== undefined) return spare;
  switch (name) {
    case 'appId':
      return SPARE_APP_OPS.has(op.id) ? t.spareAppId : t.appId;
    case 'orgId':
      // The admin routes of the org itself may move it to the free plan, where its chat keys stop working.
      return op.area === 'admin' && op.template.endsWith('/{orgId}') ? t.spareOrgId : t.orgId;
    case 'productId':
      return t.spareProductId;
    case 'orderId':
      return t.orderId;
    case 'fulfillmentId':
      return t.fulfillmentId;
    case 'model':
      // The chat keys' app: the one name GET /api/v1/models/{model} answers 200.
      return t.appNameId;
    case 'jobName':
      // A job with nothing to do in a fresh platform (no session is old enough), so a run answers at once.
      return 'retention-expiry';
    case 'checkoutSessionId':
      return t.checkoutSessions[op.id] ?? t.checkoutSessions.acpCheckoutGet!;
    case 'sessionId':
      return op.method === 'DELETE' ? t.importedSessionId : t.chatSessionId;
    case 'subscriptionId':
      return t.subscriptions[op.id === 'releaseNotesSubscriptionDelete' ? 1 : 0]!.id;
    default:
      return '00000000-0000-4000-8000-000000000000';
  }
}

function fillPath(op: Operation, t: Tenant): string {
  return op.template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(pathValue(op, name, t)));
}

function credentialOf(ctx: FuzzContext, op: Operation, t: Tenant, k: number): string | undefined {
  switch (op.security) {
    case 'adminToken':
      return ctx.adminToken;
    case 'orgKey':
      return t.orgKey;
    case 'chatKey':
      return t.chatKeys[k % t.chatKeys.length];
    case 'acpKey':
      return t.acpKeys[k % t.acpKeys.length];
    case 'signingSecret':
      return t.subscriptions[op.id === 'releaseNotesSubscriptionDelete' ? 1 : 0]!.secret;
    // consoleSession: no bearer at all; the console's cookie and custom header stand for it (consoleSessionOf).
    default:
      return undefined;
  }
}

/** Every credential a tenant holds, of every class: "a key of another class" comes from here. */
export function credentialsOf(t: Tenant, ctx: FuzzContext): string[] {
  return [t.orgKey, ...t.chatKeys, ...t.acpKeys, ...t.subscriptions.map((s) => s.secret), ctx.adminToken];
}

function hintsOf(t: Tenant): Hints {
  return {
    model: t.appNameId,
    'line_items[].product_id': t.productId,
    callbackUrl: `https://${CALLBACK_HOST}/hook`,
    url: `https://${CALLBACK_HOST}/orders`,
    'payment_data.handler_id': 'platform_test_card',
    'payment_data.instrument.type': 'card',
    'payment_data.instrument.credential.type': 'spt',
    'payment_data.instrument.credential.token': 'spt_test_ok',
    // A product's price, currency and image, and an invitee, as the handlers read them (the schemas say less).
    price: 1800,
    currency: 'usd',
    imageUrl: `https://${CALLBACK_HOST}/mug.png`,
    email: `invitee-${t.orgId.slice(0, 8)}@fuzz.example`,
  };
}

/**
 * Header values the platform must accept for the base request to get past them: the ACP version it
 * serves, and an `Idempotency-Key` of its own for every request (a key reused with another body is a
 * 422, which would stop the request before validation).
 */
const HEADER_HINTS: Readonly<Record<string, fc.Arbitrary<string>>> = { 'API-Version': fc.constant('2026-04-17'), 'Idempotency-Key': fc.uuid() };

/** A value one time in four, so the base stays close to the minimal valid request. */
function sometimes<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
}

export function baseArb(ctx: FuzzContext, op: Operation): fc.Arbitrary<Base> {
  // The console's custom header is sent with the cookie, never drawn (a documented one would be sent twice).
  const ownHeaders = isConsole(op) ? op.headers.filter((p) => p.name.toLowerCase() !== CONSOLE_REQUEST_HEADER.toLowerCase()) : op.headers;
  const optionalQuery = op.query.map((p) => sometimes(validArb(p.schema).map((v) => [p.name, encodeURIComponent(String(v))] as const)));
  // A required header is always sent (a request without it is refused before anything else is judged).
  const optionalHeaders = ownHeaders.map((p) => {
    const value = (HEADER_HINTS[p.name] ?? validArb(p.schema)).map((v) => [p.name, String(v).replace(/[^\x20-\x7e]/g, '')] as const);
    return p.required ? value : sometimes(value);
  });
  return fc
    .record({ t: fc.nat(ctx.tenants.length - 1), k: fc.nat(7), query: fc.tuple(...optionalQuery), headers: fc.tuple(...optionalHeaders) })
    .chain(({ t, k, query, headers }) => {
      const tenant = ctx.tenants[t]!;
      const credential = credentialOf(ctx, op, tenant, k);
      const session = consoleSessionOf(op, tenant.console);
      const common: Omit<Base, 'body'> = {
        op,
        tenant,
        path: fillPath(op, tenant),
        query: query.filter((q) => q !== undefined),
        headers: [
          ['Host', ctx.hostHeader],
          ...(credential ? [['Authorization', `Bearer ${credential}`] as const] : []),
          ...(session ? consoleHeaders(session) : []),
          ...headers.filter((h) => h !== undefined),
        ],
        ...(credential ? { credential } : {}),
        ...(session ? { session } : {}),
      };
      if (!op.body) return fc.constant<Base>(common);
      if (op.body.contentType === 'multipart/form-data') {
        return fc.constant<Base>({ ...common, body: { contentType: `multipart/form-data; boundary=${BOUNDARY}`, bytes: multipartFile(PNG) + MULTIPART_END } });
      }
      return validArb(op.body.schema, hintsOf(tenant)).map(
        (json): Base => ({ ...common, body: { contentType: op.body!.contentType, json, bytes: Buffer.from(JSON.stringify(json), 'utf8').toString('latin1') } }),
      );
    });
}

/** One mutation of a base request: what replaces which part, and what the contract then demands. */
export interface Mutation {
  readonly cls: HostileClass;
  readonly variant: string;
  readonly method?: string;
  readonly path?: string;
  /** Replaces the whole target (path and query). */
  readonly target?: string;
  readonly query?: QueryPairs;
  readonly headers?: Pairs;
  /** Null: no body and no Content-Type. */
  readonly body?: BodySpec | null;
  readonly contentType?: string | null;
  readonly framing?: HostileRequest['framing'];
  readonly keepAlive?: boolean;
  readonly abandon?: boolean;
  readonly expect?: readonly number[];
}

function queryString(query: QueryPairs): string {
  return query.length ? `?${query.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&')}` : '';
}

export function render(base: Base, m: Mutation): HostileRequest {
  const body = m.body === null ? undefined : (m.body ?? (base.body ? { bytes: base.body.bytes } : undefined));
  const contentType = m.contentType === null || m.body === null ? undefined : (m.contentType ?? base.body?.contentType);
  const headers = m.headers ?? [...base.headers, ...(contentType !== undefined ? [['Content-Type', contentType] as const] : [])];
  return {
    op: base.op.id,
    cls: m.cls,
    variant: m.variant,
    method: m.method ?? base.op.method,
    target: m.target ?? (m.path ?? base.path) + queryString(m.query ?? base.query),
    headers,
    ...(body ? { body } : {}),
    framing: m.framing ?? 'length',
    ...(m.keepAlive ? { keepAlive: true } : {}),
    ...(m.abandon ? { abandon: true } : {}),
    ...(m.expect ? { expect: m.expect } : {}),
  };
}

/** The base's headers with Content-Type (as `render` would add it), for mutations that rewrite headers. */
export function headersWithType(base: Base): Pairs {
  return [...base.headers, ...(base.body ? [['Content-Type', base.body.contentType] as const] : [])];
}

/** `headers` without `name` (any case), then `name: value` at the end unless `value` is undefined. */
export function replaceHeader(headers: Pairs, name: string, value: string | undefined): Pairs {
  const out = headers.filter(([k]) => k.toLowerCase() !== name.toLowerCase());
  return value === undefined ? out : [...out, [name, value]];
}
