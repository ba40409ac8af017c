/**
 * Every exchange a handler test makes through `p.call` is checked against the OpenAPI documents
 * (functions/openapi/document.ts, and admin-document.ts for the admin API): a route's status must be documented and its JSON body must
 * match the documented schema; and a request the platform accepted (2xx) must be one the document
 * allows: every query parameter documented and of its type, and a JSON body valid against the
 * documented request schema. So the document cannot drift from the code, on either side of the
 * exchange, without a test failing. Set OPENAPI_CHECK=off to run a test without it (never in CI).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildAdminOpenApiDocument } from '../../functions/openapi/admin-document';
import { buildOpenApiDocument } from '../../functions/openapi/document';
import { buildConsoleOpenApiDocument } from '../../functions/openapi/console-document';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Record<string, unknown>;
}

interface Operation {
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}

type Paths = Record<string, Record<string, Operation>>;
const doc = {
  paths: { ...(buildOpenApiDocument().paths as Paths), ...(buildAdminOpenApiDocument().paths as Paths), ...(buildConsoleOpenApiDocument().paths as Paths) },
};
const templates = Object.keys(doc.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));
const compiled = new Map<string, ValidateFunction>();

/** Which documented operation a request reached, if any. */
export function operationFor(method: string, url: string): { template: string; operation: Operation } | undefined {
  const path = new URL(url, 'http://x').pathname;
  const found = templates.find((t) => t.pattern.test(path));
  const operation = found ? doc.paths[found.template]![method.toLowerCase()] : undefined;
  return found && operation ? { template: found.template, operation } : undefined;
}

/** A description of what does not match the document, or undefined when the response does. */
export function openApiMismatch(method: string, url: string, status: number, contentType: string | null, text: string): string | undefined {
  if (process.env.OPENAPI_CHECK === 'off') return undefined;
  const hit = operationFor(method, url);
  if (!hit) return undefined;
  const where = `${method} ${hit.template} → ${status}`;
  const response = hit.operation.responses[String(status)];
  if (!response) return `${where}: status not documented (documented: ${Object.keys(hit.operation.responses).join(', ')})`;
  if (!response.content || !text) return undefined;
  const type = (contentType ?? '').split(';')[0]!.trim();
  const media = response.content[type];
  if (!media) return `${where}: content type ${type || '(none)'} not documented (${Object.keys(response.content).join(', ')})`;
  if (type !== 'application/json') return undefined;
  const validate = validatorFor(`${method} ${hit.template} ${status} ${type}`, media.schema);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where}: body is not JSON`;
  }
  return validate(body) ? undefined : `${where}: ${ajv.errorsText(validate.errors)} in ${text.slice(0, 300)}`;
}

function validatorFor(key: string, schema: Record<string, unknown>): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

/** A query value as its documented type reads it: integers and numbers from their text, booleans from true/false. */
function queryValue(schema: Record<string, unknown>, raw: string): unknown {
  if ((schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (schema.type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

/**
 * What makes an accepted request one the document does not allow, or undefined when it allows it.
 * Only 2xx answers are checked: a refused request may be anything.
 */
export function openApiRequestMismatch(
  method: string,
  url: string,
  status: number,
  request: { readonly contentType?: string; readonly body?: string },
  responseHeaders?: Headers,
): string | undefined {
  if (process.env.OPENAPI_CHECK === 'off' || status < 200 || status > 299) return undefined;
  const hit = operationFor(method, url);
  if (!hit) return undefined;
  const where = `${method} ${hit.template} accepted (${status})`;
  const query = [...(hit.operation.parameters ?? [])].filter((p) => p.in === 'query');
  // Area A refuses a name it does not know (before 2026-10-10 it answers and names it in
  // X-Svc-Unknown-Query-Params); the other areas ignore one.
  const strict = (hit.operation.tags ?? []).includes('Org Export');
  const legacy = (responseHeaders?.get('x-svc-unknown-query-params') ?? '').split(',').map(decodeURIComponent);
  for (const [name, raw] of new URL(url, 'http://x').searchParams) {
    const param = query.find((q) => q.name === name);
    if (!param && strict && !legacy.includes(name)) return `${where} with query parameter ${name}, which the document does not list`;
    if (!param) continue;
    const validate = validatorFor(`query ${method} ${hit.template} ${name}`, param.schema);
    if (!validate(queryValue(param.schema, raw))) return `${where} with ${name}=${raw}: ${ajv.errorsText(validate.errors)}`;
  }
  const body = hit.operation.requestBody;
  if (!body) return request.body ? `${where} with a body, which the document does not describe` : undefined;
  if (!request.body) return body.required ? `${where} without the body the document requires` : undefined;
  const type = (request.contentType ?? '').split(';')[0]!.trim();
  const media = body.content[type];
  if (!media) return `${where} with a ${type || 'typeless'} body; the document takes ${Object.keys(body.content).join(', ')}`;
  if (type !== 'application/json') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.body);
  } catch {
    return `${where} with a body that is not JSON`;
  }
  const validate = validatorFor(`body ${method} ${hit.template}`, media.schema);
  return validate(parsed) ? undefined : `${where} with a body the document refuses: ${ajv.errorsText(validate.errors)} in ${request.body.slice(0, 300)}`;
}
