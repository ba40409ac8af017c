/**
 * One declaration per operation of what its request carries: path, query and header parameters and the
 * body, each a rule with its schema (functions/kernel/domain/request-rule.ts). The handler reads its
 * input through it (`readRequest`) and the OpenAPI document shows it (functions/openapi/document.ts),
 * so what a route takes and what the document says it takes cannot drift apart. Declarations live per
 * area in `<area>/openapi/<area>-requests.ts`, keyed by route id.
 * No zod at runtime: a body parsed with zod names its schema here only as a type, for the document.
 * The `Idempotency-Key` a POST may carry is read and claimed here too (below).
 */
import type * as z from 'zod';
import { badRequest, notFound } from '../domain/errors';
import { isUuid, type PathParam } from '../domain/ids';
import type { JsonSchema } from '../domain/json-schema';
import type { Rule } from '../domain/request-rule';
import type { HttpRequest } from './kit-request';
import type { Logger } from '@aws-lambda-powertools/logger';
import { requestFingerprint } from '../domain/digest';
import type { IdempotencyStore } from '../app/kernel-ports';

/** A path, query or header parameter: its rule reads the text of a parameter the request carries. */
export interface ParamRule<Out> extends Rule<string, Out> {
  /** The document marks it required; the area refuses a request without it, in its own words. @default false */
  readonly required?: boolean;
  /**
   * A list: a header's repeated field lines (RFC 9110 §5.3), or a query parameter's repeated values,
   * are read as one, joined by commas. @default false
   */
  readonly list?: boolean;
}

/** A parameter's rule; its schema is a string's unless it says otherwise. */
export function param<Out>(schema: JsonSchema, read: (raw: string) => Out, options: ParamOptions = {}): ParamRule<Out> {
  return { schema: { type: 'string', ...schema }, read, ...(options.required ? { required: true } : {}), ...(options.list ? { list: true } : {}) };
}

type ParamOptions = Pick<ParamRule<unknown>, 'required' | 'list'>;

/** A parameter taken as sent. */
export function textParam(schema: JsonSchema, options: ParamOptions = {}): ParamRule<string> {
  return param(schema, (raw) => raw, options);
}

/** The 404 of a path id that names no resource: `sessionId` -> "Session not found". */
export function pathIdNotFound(name: string): string {
  const resource = name.endsWith('Id') ? name.slice(0, -2) : name;
  return `${resource.charAt(0).toUpperCase()}${resource.slice(1)} not found`;
}

/**
 * A resource id in the path: a UUID, anything else names no resource (404). The kit already refuses
 * such ids on the export, release-notes and admin APIs before the route runs (so a request over its
 * rate limit is a 429 whatever its path); the rule says so to the document and types the value.
 */
export function uuidPathId(name: string): ParamRule<string> {
  return param({ format: 'uuid' }, (raw) => {
    if (!isUuid(raw)) throw notFound(pathIdNotFound(name));
    return raw;
  });
}

/**
 * A path id of the shape its route declares (`RouteDef.pathParams`, which the kit checks before the
 * handler runs, so this 404 is the same one): `ful_<uuid>` for a fulfillment, say.
 */
export function declaredPathId(name: string, declared: PathParam): ParamRule<string> {
  return param(declared.schema, (raw) => {
    const id = declared.read(raw);
    if (id === undefined) throw notFound(pathIdNotFound(name));
    return id;
  });
}

/** The longest `Idempotency-Key` accepted (ACP's own bound; area B uses the same). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * `Idempotency-Key` as sent. Its length is checked when the key is claimed (`claimIdempotencyKey` below), once
 * the body passed its rules, which is the order the areas answer in.
 */
export function idempotencyKeyHeader(description: string, options: { readonly required?: boolean } = {}): ParamRule<string> {
  return textParam({ minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, description }, options);
}

/** Parameters by name, in the order their rules run. */
export type ParamRules = Readonly<Record<string, ParamRule<unknown>>>;

export type BodyContentType = 'application/json' | 'multipart/form-data' | 'application/x-ndjson';

/** The body: how it is read (its rule sees the request, whose body readers the route's body mode gives) and what the document shows. */
export interface BodyRule<Out> {
  readonly contentType: BodyContentType;
  /** JSON Schema, or the zod schema the rule parses with (the document converts it). */
  readonly schema: JsonSchema | z.core.$ZodType;
  /** The document marks the body required. @default false */
  readonly required?: boolean;
  /** Other media types the operation takes as its body, each with its schema (the document lists them). */
  readonly alternatives?: Readonly<Record<string, JsonSchema | z.core.$ZodType>>;
  read(req: HttpRequest): Out | Promise<Out>;
}

export interface RequestDeclaration {
  readonly path?: ParamRules;
  readonly query?: ParamRules;
  readonly headers?: ParamRules;
  readonly body?: BodyRule<unknown>;
}

type ReadParams<P> = P extends ParamRules ? { readonly [K in keyof P]?: ReturnType<P[K]['read']> } : Record<never, never>;
type ReadPath<P> = P extends ParamRules ? { readonly [K in keyof P]: ReturnType<P[K]['read']> } : Record<never, never>;

/** What a request's parameters read as: path parameters always, the others when the request carries them. */
export interface RequestParams<D extends RequestDeclaration> {
  readonly path: ReadPath<D['path']>;
  readonly query: ReadParams<D['query']>;
  readonly headers: ReadParams<D['headers']>;
  /** Headers the answer carries because of how the request was read (area A's notice of ignored query parameters). */
  readonly answerHeaders: Readonly<Record<string, string>>;
}

export interface RequestValues<D extends RequestDeclaration> extends RequestParams<D> {
  readonly body: D['body'] extends BodyRule<infer B> ? B : undefined;
}

/**
 * An area's rule for the query as a whole, run before any parameter's own rule: area A refuses (or,
 * before its cut-off date, reports in headers) names it does not declare and names given twice. Without
 * one, undeclared names are ignored.
 */
export type QueryPolicy = (req: HttpRequest, declared: readonly string[]) => Readonly<Record<string, string>>;

export interface ReadOptions {
  readonly queryPolicy?: QueryPolicy;
}

/** The console's and the admin's query rule: a name the operation does not declare, or a name given twice, is a 400. */
export const strictQuery: QueryPolicy = (req, declared) => {
  for (const [name, values] of Object.entries(req.event.multiValueQueryStringParameters ?? {})) {
    if (!declared.includes(name)) throw badRequest(`Unknown query parameter: ${name.slice(0, 64)}`);
    if ((values?.length ?? 0) > 1) throw badRequest(`Query parameter ${name} is given more than once`);
  }
  for (const name of Object.keys(req.query)) if (!declared.includes(name)) throw badRequest(`Unknown query parameter: ${name.slice(0, 64)}`);
  return {};
};

function readParams(rules: ParamRules | undefined, value: (name: string, rule: ParamRule<unknown>) => string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(rules ?? {})) {
    const raw = value(name, rule);
    if (raw !== undefined) out[name] = rule.read(raw);
  }
  return out;
}

/** Every field line of a list header as one list; the one value the event's header map holds otherwise. */
function listHeader(req: HttpRequest, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const lines = Object.entries(req.event.multiValueHeaders ?? {})
    .filter(([n]) => n.toLowerCase() === wanted)
    .flatMap(([, values]) => values ?? []);
  return lines.length ? lines.join(', ') : req.header(name);
}

/** Reads the path, then the query (after the area's query policy), then the headers, each in declaration order; the first refusal answers. */
export function readParameters<D extends RequestDeclaration>(decl: D, req: HttpRequest, options: ReadOptions = {}): RequestParams<D> {
  const path: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(decl.path ?? {})) path[name] = rule.read(Object.hasOwn(req.path, name) ? req.path[name]! : '');
  const answerHeaders = options.queryPolicy?.(req, Object.keys(decl.query ?? {})) ?? {};
  const query = readParams(decl.query, (name, rule) => {
    const values = rule.list ? req.event.multiValueQueryStringParameters?.[name] : undefined;
    if (values?.length) return values.join(',');
    return Object.hasOwn(req.query, name) ? req.query[name] : undefined;
  });
  const headers = readParams(decl.headers, (name, rule) => (rule.list ? listHeader(req, name) : req.header(name)));
  return { path, query, headers, answerHeaders } as unknown as RequestParams<D>;
}

/** Reads the body by its rule (undefined when the operation declares none). */
export async function readBody<D extends RequestDeclaration>(decl: D, req: HttpRequest): Promise<RequestValues<D>['body']> {
  return (decl.body ? await decl.body.read(req) : undefined) as RequestValues<D>['body'];
}

/** Reads every declared part of the request, in a fixed order: path, query, headers, body. */
export async function readRequest<D extends RequestDeclaration>(decl: D, req: HttpRequest, options: ReadOptions = {}): Promise<RequestValues<D>> {
  const params = readParameters(decl, req, options);
  return { ...params, body: await readBody(decl, req) };
}

/** A JSON body (`json` routes): the object the kit parsed, read by `read`. */
export function jsonBody<Out>(
  schema: BodyRule<Out>['schema'],
  read: (body: Record<string, unknown>, req: HttpRequest) => Out,
  options: { readonly required?: boolean } = {},
): BodyRule<Out> {
  return { contentType: 'application/json', schema, ...(options.required ? { required: true } : {}), read: (req) => read(req.jsonBody(), req) };
}

/*
 * The one `Idempotency-Key` mechanism of the platform's POSTs: chat turns and uploads (area B,
 * docs/adr/0023) and checkout (area C). A key is claimed before the work runs; a repeat gets the stored
 * answer, another request with the key is a conflict, one still running is in flight. The claim stores
 * the answer of work that completed, and forgets the key of work that was refused or failed, so a retry
 * runs afresh. Each area turns the outcomes into its own answer shapes (area B's `{error}` bodies, ACP
 * `Error` objects with `Idempotent-Replayed`), so the rules are written once and the shapes per area.
 */

/** What a claimed key can be: a replay of a stored answer, a conflict, still in flight, or the caller's to run. */
export type IdempotencyClaim =
  | { readonly state: 'replay'; readonly status: number; readonly body: unknown }
  | { readonly state: 'conflict' }
  | { readonly state: 'in_flight' }
  | {
      readonly state: 'claimed';
      /** Stores the answer for repeats; a store failure is logged, the answer is still given. */
      remember(status: number, body: unknown): Promise<void>;
      /** Forgets the key: the request was refused or failed, so a retry runs afresh. */
      forget(): Promise<void>;
    };

export interface IdempotencyDeps {
  readonly idempotency: IdempotencyStore;
  readonly logger: Logger;
}

export const IDEMPOTENCY_KEY_LENGTH_MESSAGE = `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`;

/**
 * The request's key (as its `Idempotency-Key` header rule read it), undefined when none was sent; a key
 * of the wrong length is `refuse`d with the one message. Checked when the key is claimed, after the
 * body: that is the order the areas answer in.
 */
export function idempotencyKeyOf(key: string | undefined, refuse: (message: string) => Error): string | undefined {
  if (key !== undefined && (key.length < 1 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH)) throw refuse(IDEMPOTENCY_KEY_LENGTH_MESSAGE);
  return key;
}

/**
 * Claims `scope` (the caller, the route and the key, plus what else tells two requests apart) for a
 * request whose fingerprint covers `request`. `inFlightMs` is how long a claim holds before the next
 * request with the key may take it over (its request crashed or timed out).
 */
export async function claimIdempotencyKey(
  deps: IdempotencyDeps,
  input: { readonly scope: string; readonly request: unknown; readonly inFlightMs?: number },
): Promise<IdempotencyClaim> {
  const begun = await deps.idempotency.begin(input.scope, requestFingerprint(input.request), Date.now(), input.inFlightMs);
  if (begun.state !== 'new') return begun;
  return {
    state: 'claimed',
    remember: (status, body) =>
      deps.idempotency.finish(input.scope, { status, body }).catch((err: unknown) => deps.logger.error('idempotency answer not stored', err as Error)),
    forget: () => deps.idempotency.finish(input.scope, undefined).catch(() => undefined),
  };
}
