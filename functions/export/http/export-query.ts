/**
 * Area A's reading of a request, over the operation's one declaration (export/openapi/export-requests.ts):
 * unrecognized query names (400 from 2026-10-10, legacy headers before) and a parameter given twice
 * (400) are refused before any value is read by its rule, and `limit` comes with its clamping headers.
 */
import { badRequest } from '../../kernel/domain/errors';
import type { Micros } from '../../kernel/domain/time';
import type { HttpRequest } from '../../kernel/http/kit-request';
import { readParameters, type QueryPolicy, type RequestDeclaration, type RequestParams } from '../../kernel/http/request-declaration';
import { DEFAULT_LIMIT, type LimitOutcome } from '../domain/export-params';
import { checkUnknownQueryParams } from '../domain/query-policy';

/** Area A's rule for the query as a whole, as of `nowUs`. */
function exportQueryPolicy(nowUs: Micros): QueryPolicy {
  return (req, declared) => {
    const { headers } = checkUnknownQueryParams(Object.keys(req.query), declared, nowUs);
    for (const [name, values] of Object.entries(req.event.multiValueQueryStringParameters ?? {})) {
      if (declared.includes(name) && (values?.length ?? 0) > 1) throw badRequest(`Invalid ${name}: must be given once`);
    }
    return headers;
  };
}

/** The request's parameters as area A reads them; `answerHeaders` are the legacy notices of ignored names. */
export function exportRequest<D extends RequestDeclaration>(req: HttpRequest, decl: D, nowUs: Micros): RequestParams<D> {
  // Each value's rule throws the spec's 400 itself.
  return readParameters(decl, req, { queryPolicy: exportQueryPolicy(nowUs) });
}

/** `exportRequest` of a paginated list: its `limit` (default 50), and the clamping headers beside the legacy ones. */
export function pagedExportRequest<D extends RequestDeclaration>(req: HttpRequest, decl: D, nowUs: Micros) {
  const read = exportRequest(req, decl, nowUs);
  const limit = ((read.query as { limit?: LimitOutcome }).limit ?? { limit: DEFAULT_LIMIT, headers: {} }) satisfies LimitOutcome;
  // Both notices can apply at once: Warning is a list header, so neither may overwrite the other.
  const warnings = [read.answerHeaders.Warning, limit.headers.Warning].filter((w): w is string => w !== undefined);
  const headers = { ...read.answerHeaders, ...limit.headers, ...(warnings.length ? { Warning: warnings.join(', ') } : {}) };
  return { ...read, limit: limit.limit, headers };
}
