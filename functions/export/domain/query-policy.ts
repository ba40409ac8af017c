/**
 * Area A's rule for unrecognized query parameters: from 2026-10-10 (UTC) a rejection; before that
 * date the legacy behaviour, where the request succeeds and the response names them in headers.
 */
import { badRequest } from '../../kernel/domain/errors';
import type { Micros } from '../../kernel/domain/time';

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
  // Names come from the client: percent-encode them so a header never carries a control character, a
  // quote or a non-ASCII character (the HTTP layer refuses those, which would turn this into a 500).
  const shown = unknown.map(encodeURIComponent);
  return {
    headers: {
      Warning: `299 - "Unrecognized query parameters are ignored and will be rejected from 2026-10-10: ${shown.join(', ')}"`,
      'X-Svc-Unknown-Query-Params': shown.join(','),
    },
  };
}
