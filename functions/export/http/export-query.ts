/**
 * The query-string rules shared by every org export route: unrecognized names (400 from 2026-10-10,
 * legacy headers before), a parameter given twice (400), and `limit` with its clamping headers.
 */
import { badRequest } from '../../platform/domain/errors';
import { parseLimit } from '../domain/export-params';
import { checkUnknownQueryParams } from '../domain/query-policy';
import type { Micros } from '../../platform/domain/time';
import type { HttpRequest } from '../../platform/http/kit-request';

export interface ExportQuery {
  /** The recognized parameters only; unrecognized ones never reach a filter. */
  readonly params: Readonly<Record<string, string>>;
  readonly headers: Record<string, string>;
}

export function exportQuery(req: HttpRequest, allowed: readonly string[], nowUs: Micros): ExportQuery {
  const names = Object.keys(req.query);
  const { headers } = checkUnknownQueryParams(names, allowed, nowUs);
  for (const [name, values] of Object.entries(req.event.multiValueQueryStringParameters ?? {})) {
    if (allowed.includes(name) && (values?.length ?? 0) > 1) throw badRequest(`Invalid ${name}: must be given once`);
  }
  const params = Object.fromEntries(Object.entries(req.query).filter(([k]) => allowed.includes(k)));
  return { params, headers };
}

/** `exportQuery` plus `limit`, for the paginated lists. */
export function pagedExportQuery(req: HttpRequest, allowed: readonly string[], nowUs: Micros) {
  const q = exportQuery(req, ['limit', 'cursor', ...allowed], nowUs);
  const limit = parseLimit(q.params.limit);
  // Both notices can apply at once: Warning is a list header, so neither may overwrite the other.
  const warnings = [q.headers.Warning, limit.headers.Warning].filter((w): w is string => w !== undefined);
  const headers = { ...q.headers, ...limit.headers, ...(warnings.length ? { Warning: warnings.join(', ') } : {}) };
  return { params: q.params, limit: limit.limit, headers };
}
