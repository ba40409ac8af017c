/**
 * The fuzz suite's view of the OpenAPI documents (the public one, functions/openapi/document.ts, the
 * admin one, functions/openapi/admin-document.ts, and the console's, functions/openapi/console-document.ts): every operation with
 * its parameters and their schemas, its body schema, its documented statuses and response schemas; the
 * area a path belongs to; and which operations a path names. Generators and oracle read only this, so
 * a route added to the table is fuzzed without touching the suite.
 */
import { buildAdminOpenApiDocument } from '../../functions/openapi/admin-document';
import { buildConsoleOpenApiDocument } from '../../functions/openapi/console-document';
import { buildOpenApiDocument } from '../../functions/openapi/document';

export type JsonSchema = Readonly<Record<string, unknown>>;
export type Area = 'export' | 'chat' | 'acp' | 'releaseNotes' | 'admin' | 'console' | 'neutral';

export interface Param {
  readonly name: string;
  readonly schema: JsonSchema;
  /** A request without it is refused (the base request always sends it). */
  readonly required: boolean;
}

export interface Operation {
  readonly id: string;
  readonly method: string;
  readonly template: string;
  readonly pattern: RegExp;
  readonly pathParams: readonly string[];
  readonly query: readonly Param[];
  readonly headers: readonly Param[];
  /**
   * The security scheme (orgKey, chatKey, acpKey, signingSecret, adminToken, consoleSession; the console's
   * state-changing operations list consoleRequest beside it), absent on public operations.
   */
  readonly security?: string;
  readonly body?: { readonly contentType: string; readonly schema: JsonSchema; readonly required: boolean };
  /** Documented statuses, each with its response media types and their schemas. */
  readonly responses: ReadonlyMap<number, Readonly<Record<string, JsonSchema>>>;
  readonly area: Area;
}

export interface ApiModel {
  readonly operations: readonly Operation[];
}

/** Area path patterns (the router contract): a prefix ending in `/`, or one exact path. */
const AREA_PREFIXES: readonly (readonly [string, Area])[] = [
  ['/api/v1/release-notes/', 'releaseNotes'],
  ['/api/v1/org/', 'export'],
  ['/api/v1/chat/', 'chat'],
  ['/api/v1/responses', 'chat'],
  ['/api/v1/responses/', 'chat'],
  ['/api/v1/conversations', 'chat'],
  ['/api/v1/conversations/', 'chat'],
  ['/api/v1/models', 'chat'],
  ['/api/v1/models/', 'chat'],
  ['/admin/v1/', 'admin'],
  ['/console/', 'console'],
  ['/acp/', 'acp'],
];

export function areaOf(path: string): Area {
  return AREA_PREFIXES.find(([pattern]) => (pattern.endsWith('/') ? path.startsWith(pattern) : path === pattern))?.[1] ?? 'neutral';
}

/** The API reference's static files: out of scope except that they must never 5xx. */
export function isReference(path: string): boolean {
  return path === '/api/v1/openapi.json' || path === '/console/openapi.json' || path === '/docs' || path.startsWith('/docs/');
}

function templatePattern(template: string): RegExp {
  const source = template
    .split('/')
    .map((seg) => (/^\{[^}]+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

interface DocOperation {
  operationId: string;
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string; schema: JsonSchema; required?: boolean }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}

const DOCUMENTS = () => [buildOpenApiDocument(), buildAdminOpenApiDocument(), buildConsoleOpenApiDocument()];

export function loadModel(docs: readonly Record<string, unknown>[] = DOCUMENTS()): ApiModel {
  const operations: Operation[] = [];
  const paths = docs.flatMap((doc) => Object.entries(doc.paths as Record<string, Record<string, DocOperation>>));
  for (const [template, methods] of paths) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      const of = (where: string) => params.filter((p) => p.in === where).map((p) => ({ name: p.name, schema: p.schema, required: p.required ?? false }));
      const bodyEntry = op.requestBody ? Object.entries(op.requestBody.content)[0] : undefined;
      const responses = new Map<number, Record<string, JsonSchema>>();
      for (const [status, r] of Object.entries(op.responses)) {
        responses.set(Number(status), Object.fromEntries(Object.entries(r.content ?? {}).map(([type, media]) => [type, media.schema])));
      }
      // The console's custom header (consoleRequest) goes with its session: the session names the operation's credential.
      const schemes = Object.keys(op.security?.[0] ?? {});
      const security = schemes.includes('consoleSession') ? 'consoleSession' : schemes[0];
      operations.push({
        id: op.operationId,
        method: method.toUpperCase(),
        template,
        pattern: templatePattern(template),
        pathParams: of('path').map((p) => p.name),
        query: of('query'),
        headers: of('header'),
        ...(security ? { security } : {}),
        ...(bodyEntry ? { body: { contentType: bodyEntry[0], schema: bodyEntry[1].schema, required: op.requestBody?.required ?? false } } : {}),
        responses,
        area: areaOf(template),
      });
    }
  }
  return { operations };
}

/** The operations whose path template matches `path` (any method). */
export function operationsAt(model: ApiModel, path: string): Operation[] {
  return model.operations.filter((o) => o.pattern.test(path));
}

/**
 * Statuses the router contract adds to every operation (the parser's 400, 413, 414, 431; 500 is
 * documented but never acceptable), and the few it adds to some. The document may not list them yet:
 * they are allowed anyway, and `pendingStatuses` says which are missing.
 */
export const ROUTER_STATUSES: readonly number[] = [400, 413, 414, 431];
const EXTRA_STATUSES: Readonly<Record<string, readonly number[]>> = {
  acpCheckoutCreate: [413],
  releaseNotesSubscriptionCreate: [413],
  chatFilesCreate: [404],
};

export function contractStatuses(op: Operation): readonly number[] {
  return [...ROUTER_STATUSES, 500, ...(EXTRA_STATUSES[op.id] ?? [])];
}

/** Per operation, the contract's statuses the document does not list yet (empty when it is up to date). */
export function pendingStatuses(model: ApiModel): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const op of model.operations) {
    const missing = contractStatuses(op).filter((s) => !op.responses.has(s));
    if (missing.length) out.set(op.id, missing);
  }
  return out;
}
