/**
 * One table per API area: domain error code -> the exact status and body the spec demands. The
 * functions answer with it, and API Gateway's own answers (functions/kernel/http/api-gateway-contract.ts) are rendered
 * from it too, so an error looks the same whichever layer gives it. A leaf module: it imports only
 * types, so the CDK app may load it (test/unit/layers.test.ts).
 */
import type { ErrorCode } from './errors';

/** The error format an API area uses (routes.ts names each route's area). */
export type ErrorArea = 'export' | 'chat' | 'acp' | 'releaseNotes' | 'console' | 'admin';

export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  expired: 401,
  plan_required: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  not_allowed: 405,
  payload_too_large: 413,
  uri_too_long: 414,
  headers_too_large: 431,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
  model_failed: 500,
};

/** The code a client sees for `code` in `area`: area A (and the areas sharing its shape) never shows `expired`. */
export function shownCode(area: ErrorArea, code: ErrorCode): string {
  if (code === 'plan_required') return 'unauthorized';
  if (code === 'expired' && area !== 'acp') return 'unauthorized';
  return code;
}

/**
 * The body of an error in `area`, with the code already as the client sees it:
 * - area A, D, the console's backend and the admin API: `{ error: { code, message } }`;
 * - area B: `{ error: string }`, except an error with a detail code (the 422 image codes): `{ error: <detail>, message }`;
 * - area C: authentication errors `{ error: { code, message } }`, a 429 `{ error: string }` (the spec's
 *   table), and every other error (validation, not found, state, idempotency, version) the ACP `Error`
 *   object `{ type, code, message, param? }`, with the detail as its `code` when there is one (a
 *   validation error without one is `invalid`).
 * The spec leaves area D's answer to an invalid create body open: 400 `bad_request` (docs/adr/0011).
 */
/** Codes area C answers with the ACP `Error` object (the spec fixes only its auth and 429 bodies). */
const ACP_ERROR_CODES: ReadonlySet<string> = new Set([
  'bad_request',
  'not_found',
  'conflict',
  'not_allowed',
  'method_not_allowed',
  'payload_too_large',
  'uri_too_long',
  'headers_too_large',
  'payment_required',
  'unprocessable',
  'unavailable',
]);

export function renderErrorBody(area: ErrorArea, code: string, message: string, detail?: string, param?: string): unknown {
  if (area === 'chat') return detail !== undefined ? { error: detail, message } : { error: message };
  if (area === 'acp' && code === 'rate_limited') return { error: message };
  if (area === 'acp' && ACP_ERROR_CODES.has(code)) {
    // A validation error without its own detail answers ACP's well-known `invalid`.
    return {
      type: code === 'unavailable' ? 'service_unavailable' : 'invalid_request',
      code: detail ?? (code === 'bad_request' ? 'invalid' : code),
      message,
      ...(param !== undefined ? { param } : {}),
    };
  }
  return { error: { code, message } };
}

export function errorBody(area: ErrorArea, code: ErrorCode, message: string, detail?: string, param?: string): unknown {
  return renderErrorBody(area, shownCode(area, code), message, detail, param);
}

export const GENERIC_500_MESSAGE = 'Internal server error';
