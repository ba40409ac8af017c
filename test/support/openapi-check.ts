/**
 * Every response a handler test receives through `p.call` is checked against the OpenAPI document
 * (functions/openapi/document.ts): a public route's status must be documented, and its JSON body must
 * match the documented schema. So the document cannot drift from the code without a test failing.
 * Set OPENAPI_CHECK=off to run a test without it (never in CI).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApiDocument } from '../../functions/openapi/document';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}

const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, Operation>> };
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
  const key = `${method} ${hit.template} ${status} ${type}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(media.schema);
    compiled.set(key, validate);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where}: body is not JSON`;
  }
  return validate(body) ? undefined : `${where}: ${ajv.errorsText(validate.errors)} in ${text.slice(0, 300)}`;
}
