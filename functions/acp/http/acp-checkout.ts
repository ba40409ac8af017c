/**
 * What every checkout route of area C does around its use case, once the key, the app and the rate
 * limit passed (ACP 2026-04-17, RFC sections 2.1, 3.1 and 6; docs/adr/0034):
 * - `API-Version` is required: missing is 400 `missing_api_version`, a version this platform does not
 *   serve 400 `unsupported_api_version`, both with `supported_versions` (newest first);
 * - on every POST `Idempotency-Key` (1 to 255 characters) is required: missing is 400
 *   `idempotency_key_required`. It goes through the platform's one mechanism
 *   (kernel/http/request-declaration.ts) in ACP's shapes: echoed on the answer, a replay returns the
 *   stored answer (a refusal too, but never a 5xx) with `Idempotent-Replayed: true`, the same key with another body is 422
 *   `idempotency_conflict`, one still running is 409 `idempotency_in_flight` with `Retry-After`;
 * - `Request-Id` is echoed.
 * The answer is the session in the official `CheckoutSession` shape, with the app's policies as its
 * `links` as they are set now.
 */
import { checkoutView, invalid, policyLinks, type CheckoutSession } from '../domain/checkout';
import { canonicalJson } from '../../kernel/domain/digest';
import { errorBody, STATUS_OF } from '../../kernel/domain/error-bodies';
import { DomainError } from '../../kernel/domain/errors';
import { claimIdempotencyKey, idempotencyKeyOf, readBody, readParameters } from '../../kernel/http/request-declaration';

export { canonicalJson };
import { ACP_SUPPORTED_VERSIONS } from '../domain/discovery';
import type { AcpCheckoutDeps } from '../acp-wiring';
import { publicBaseUrl } from '../../kernel/http/base-url';
import { ACP_ROUTES } from '../acp-routes';
import { httpRoute, type HttpHandler, type HttpResult } from '../../kernel/http/kit';
import type { KeyCaller } from '../../tenancy/app/admit-request';
import type { HttpRequest } from '../../kernel/http/kit-request';
import { ACP_REQUESTS, type CheckoutRouteId } from '../openapi/acp-requests';

const IN_FLIGHT_RETRY_SECONDS = 1;

/** The RFC's own messages (section 6.1 and 6.4). */
const IDEMPOTENCY_MESSAGES = {
  required: 'Idempotency-Key header is required on all POST requests',
  conflict: 'Idempotency-Key has already been used with a different request body',
  inFlight: 'A request with this Idempotency-Key is currently being processed',
} as const;

/** A refused `API-Version`, or undefined when the request names a version this platform serves. */
function versionRefusal(version: string | undefined, headers: Record<string, string>): HttpResult | undefined {
  const supported = { supported_versions: [...ACP_SUPPORTED_VERSIONS].reverse() };
  const named = version?.trim();
  if (!named)
    return acpError(400, 'missing_api_version', `API-Version header is required: one of ${supported.supported_versions.join(', ')}`, supported, headers);
  if (ACP_SUPPORTED_VERSIONS.includes(named)) return undefined;
  return acpError(400, 'unsupported_api_version', `Unsupported API-Version: ${named.slice(0, 40)}`, supported, headers);
}

function acpError(status: number, code: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): HttpResult {
  return { status, headers, body: { type: 'invalid_request', code, message, ...extra } };
}

/** What a checkout route's use case gets of its request (acp/openapi/acp-requests.ts): the session in the path, and the body of a POST. */
export interface CheckoutInput {
  /** The path's session id; '' on create. */
  readonly checkoutSessionId: string;
  /** The POST's body; `{}` on GET. */
  readonly body: Record<string, unknown>;
}

export function checkoutRoute(
  routeId: CheckoutRouteId,
  deps: AcpCheckoutDeps,
  run: (req: HttpRequest<KeyCaller>, input: CheckoutInput) => Promise<{ readonly status: number; readonly session: CheckoutSession }>,
): HttpHandler {
  const route = ACP_ROUTES[routeId];
  const declaration = ACP_REQUESTS[routeId];
  return httpRoute(route, deps, async (req) => {
    const { path, headers: sent } = readParameters(declaration, req);
    const checkoutSessionId = 'checkoutSessionId' in path ? path.checkoutSessionId : '';
    const requestId = sent['Request-Id'];
    const echo: Record<string, string> = requestId ? { 'Request-Id': requestId.slice(0, 200) } : {};
    const refused = versionRefusal(sent['API-Version'], echo);
    if (refused) return refused;
    const execute = async (body: Record<string, unknown>): Promise<HttpResult> => {
      // Read first: a failure must come before the use case writes (or charges), never after.
      const app = await deps.apps.get(req.grant!.appId!);
      const { status, session } = await run(req, { checkoutSessionId, body });
      return { status, body: checkoutView(session, deps.payments.handlers(), publicBaseUrl(deps, req), policyLinks(app?.settings.acp)) };
    };
    if (route.method !== 'POST') {
      const result = await execute({});
      return { ...result, headers: { ...echo, ...(result.headers ?? {}) } };
    }
    // An empty header names no key either.
    const sentKey = 'Idempotency-Key' in sent ? sent['Idempotency-Key'] : undefined;
    if (!sentKey) return acpError(400, 'idempotency_key_required', IDEMPOTENCY_MESSAGES.required, {}, echo);
    const idempotencyKey = idempotencyKeyOf(sentKey, (message) => invalid('invalid', message))!;
    const body = (await readBody(declaration, req)) ?? {};
    const headers = { ...echo, 'Idempotency-Key': idempotencyKey };
    const scope = `${req.grant!.keyId}:${route.id}:${checkoutSessionId}:${idempotencyKey}`;
    const claim = await claimIdempotencyKey(deps, { scope, request: body });
    if (claim.state === 'replay') return { status: claim.status, body: claim.body, headers: { ...headers, 'Idempotent-Replayed': 'true' } };
    if (claim.state === 'conflict') return acpError(422, 'idempotency_conflict', IDEMPOTENCY_MESSAGES.conflict, {}, headers);
    if (claim.state === 'in_flight') {
      return acpError(409, 'idempotency_in_flight', IDEMPOTENCY_MESSAGES.inFlight, {}, { ...headers, 'Retry-After': String(IN_FLIGHT_RETRY_SECONDS) });
    }
    let result: HttpResult;
    try {
      result = await execute(body);
    } catch (err) {
      // A refusal is the answer to this request: a retry with the same key and body gets it again (RFC
      // 6.3). A 5xx is never kept (6.5), nor a 408, 409 or 429, which say "try again".
      const status = err instanceof DomainError ? STATUS_OF[err.code] : 500;
      if (!(err instanceof DomainError) || status >= 500 || status === 408 || status === 409 || status === 429) {
        await claim.forget();
        throw err;
      }
      deps.logger.info('request rejected', { code: err.code, status });
      result = { status, body: errorBody('acp', err.code, err.message, err.detail, err.param) };
    }
    await claim.remember(result.status, result.body);
    return { ...result, headers: { ...headers, ...(result.headers ?? {}) } };
  });
}
