/**
 * One table per API area: domain error code -> the exact status and body the spec demands.
 * Unknown errors never reach these tables; the kit answers them with a logged, generic 500.
 */
import type { ErrorCode } from '../domain/errors';
import type { Area } from '../routes';

export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  expired: 401,
  plan_required: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

/** Area A and the admin API: `{ error: { code, message } }`. Every 401 of area A carries code `unauthorized`. */
function codeAndMessage(code: ErrorCode, message: string): unknown {
  const shown = code === 'expired' || code === 'plan_required' ? 'unauthorized' : code;
  return { error: { code: shown, message } };
}

/** Area B: `{ error: string }` (422 image codes get their own shape in the chat handlers). */
function plainMessage(_code: ErrorCode, message: string): unknown {
  return { error: message };
}

/** Area C: `{ error: { code, message } }` with code `expired` kept; a 429 is `{ error: string }`. */
function acpBody(code: ErrorCode, message: string): unknown {
  if (code === 'rate_limited') return { error: message };
  return { error: { code: code === 'plan_required' ? 'unauthorized' : code, message } };
}

/**
 * Area D uses Area A's shape too. The spec leaves the answer to an invalid create body open: it is 400
 * `bad_request` with a message naming the field, a refused callback address included (docs/adr/0011);
 * a host that cannot be resolved right now is 503 `unavailable`.
 */
export const ERROR_BODY: Record<Area, (code: ErrorCode, message: string) => unknown> = {
  export: codeAndMessage,
  admin: codeAndMessage,
  releaseNotes: codeAndMessage,
  chat: plainMessage,
  acp: acpBody,
};

export const GENERIC_500_MESSAGE = 'Internal server error';
