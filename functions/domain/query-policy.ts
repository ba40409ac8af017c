/**
 * Area A's rule for unrecognized query parameters: from 2026-10-10 (UTC) a rejection; before that
 * date the legacy behaviour, where the request succeeds and the response names them in headers.
 */
import { badRequest } from './errors';
import type { Micros } from './time';

export const UNKNOWN_QUERY_REJECTED_FROM_US: Micros = Date.UTC(2026, 9, 10) * 1000;

export interface UnknownQueryOutcome {
  /** Headers of the legacy behaviour; empty when nothing was unrecognized. */
  readonly headers: Record<string, string>;
}

export function checkUnknownQueryParams(names: readonly string[], allowed: readonly string[], nowUs: Micros): UnknownQueryOutcome {
  const unknown = names.filter((n) => !allowed.includes(n));
  if (unknown.length === 0) return { headers: {} };
  if (nowUs >= UNKNOWN_QUERY_REJECTED_FROM_US) {
    throw badRequest(`Unrecognized query parameter${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
  }
  return {
    headers: {
      Warning: `299 - "Unrecognized query parameters are ignored and will be rejected from 2026-10-10: ${unknown.join(', ')}"`,
      'X-Svc-Unknown-Query-Params': unknown.join(','),
    },
  };
}
