/**
 * The query-string rules of every org export route, over the operation's one request schema
 * (export/openapi/export-requests.ts): unrecognized names (400 from 2026-10-10, legacy headers before),
 * a parameter given twice (400), each value read by its rule, and `limit` with its clamping headers.
 */
import { badRequest } from '../../platform/domain/errors';
import type { Micros } from '../../platform/domain/time';
import type { HttpRequest } from '../../platform/http/kit-request';
import { readQuery, type ParsedQuery, type QueryParams } from '../../platform/openapi/query-param-requests';
import { DEFAULT_LIMIT, type LimitOutcome } from '../domain/export-params';
import { checkUnknownQueryParams } from '../domain/query-policy';

export interface ExportQuery<T> {
  /** The recognized parameters, read; unrecognized ones never reach a filter. */
  readonly params: T;
  readonly headers: Record<string, string>;
}

export function exportQuery<Q extends QueryParams>(req: HttpRequest, params: Q, nowUs: Micros): ExportQuery<ParsedQuery<Q>> {
  const allowed = Object.keys(params);
  const { headers } = checkUnknownQueryParams(Object.keys(req.query), allowed, nowUs);
  for (const [name, values] of Object.entries(req.event.multiValueQueryStringParameters ?? {})) {
    if (allowed.includes(name) && (values?.length ?? 0) > 1) throw badRequest(`Invalid ${name}: must be given once`);
  }
  // Each value's rule throws the spec's 400 itself.
  return { params: readQuery(params, req.query), headers };
}

/** `exportQuery` of a paginated list: its `limit` (default 50) with the clamping headers beside the legacy ones. */
export function pagedExportQuery<Q extends QueryParams>(req: HttpRequest, params: Q, nowUs: Micros) {
  const q = exportQuery(req, params, nowUs);
  const limit = ((q.params as { limit?: LimitOutcome }).limit ?? { limit: DEFAULT_LIMIT, headers: {} }) satisfies LimitOutcome;
  // Both notices can apply at once: Warning is a list header, so neither may overwrite the other.
  const warnings = [q.headers.Warning, limit.headers.Warning].filter((w): w is string => w !== undefined);
  const headers = { ...q.headers, ...limit.headers, ...(warnings.length ? { Warning: warnings.join(', ') } : {}) };
  return { params: q.params, limit: limit.limit, headers };
}
