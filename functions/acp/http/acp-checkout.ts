/**
 * What every checkout route of area C does around its use case (ACP 2026-04-17): the optional
 * `API-Version` header (an unsupported one is 400 with `supported_versions`), `Request-Id` echoed, and on
 * POSTs `Idempotency-Key` through the platform's one mechanism (platform/http/idempotency-key.ts), in
 * ACP's shapes: a replay returns the stored answer with `Idempotent-Replayed: true`, the same key with
 * another body is 422 `idempotency_conflict`, one still running is 409 with `Retry-After`.
 * The answer is the session in the official `CheckoutSession` shape.
 */
import { checkoutView, invalid, type CheckoutSession } from '../domain/checkout';
import { canonicalJson } from '../../platform/domain/digest';
import { claimIdempotencyKey, idempotencyKeyOf } from '../../platform/http/idempotency-key';

export { canonicalJson };
import { ACP_SUPPORTED_VERSIONS } from '../domain/discovery';
import type { AcpCheckoutDeps } from '../wiring/acp-checkout-wiring';
import { publicBaseUrl } from '../../platform/http/base-url';
import { httpRoute, routeById, type HttpHandler, type HttpResult } from '../../platform/http/kit';
import type { HttpRequest } from '../../platform/http/kit-request';

const IN_FLIGHT_RETRY_SECONDS = 1;

function acpError(status: number, code: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): HttpResult {
  return { status, headers, body: { type: 'invalid_request', code, message, ...extra } };
}

export function checkoutRoute(
  routeId: string,
  deps: AcpCheckoutDeps,
  run: (req: HttpRequest, body: Record<string, unknown>) => Promise<{ readonly status: number; readonly session: CheckoutSession }>,
): HttpHandler {
  const route = routeById(routeId);
  return httpRoute(routeId, deps, async (req) => {
    const requestId = req.header('request-id');
    const echo: Record<string, string> = requestId ? { 'Request-Id': requestId.slice(0, 200) } : {};
    const version = req.header('api-version');
    if (version !== undefined && !ACP_SUPPORTED_VERSIONS.includes(version.trim())) {
      return acpError(
        400,
        'unsupported_api_version',
        `Unsupported API-Version: ${version.slice(0, 40)}`,
        { supported_versions: [...ACP_SUPPORTED_VERSIONS].reverse() },
        echo,
      );
    }
    const body = route.method === 'POST' ? (req.textBody().trim() ? req.jsonBody() : {}) : {};
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('invalid', 'The request body must be a JSON object');
    const idempotencyKey = route.method === 'POST' ? idempotencyKeyOf(req, (message) => invalid('invalid', message)) : undefined;
    const execute = async (): Promise<HttpResult> => {
      const { status, session } = await run(req, body);
      return { status, body: checkoutView(session, deps.payments.handlers(), publicBaseUrl(deps, req)) };
    };
    if (idempotencyKey === undefined) {
      const result = await execute();
      return { ...result, headers: { ...echo, ...(result.headers ?? {}) } };
    }
    const headers = { ...echo, 'Idempotency-Key': idempotencyKey };
    const scope = `${req.grant!.keyId}:${route.id}:${req.path.checkoutSessionId ?? ''}:${idempotencyKey}`;
    const claim = await claimIdempotencyKey(deps, { scope, request: body });
    if (claim.state === 'replay') return { status: claim.status, body: claim.body, headers: { ...headers, 'Idempotent-Replayed': 'true' } };
    if (claim.state === 'conflict') return acpError(422, 'idempotency_conflict', 'This Idempotency-Key was used with a different request body', {}, headers);
    if (claim.state === 'in_flight') {
      return acpError(
        409,
        'idempotency_in_flight',
        'A request with this Idempotency-Key is still being processed',
        {},
        { ...headers, 'Retry-After': String(IN_FLIGHT_RETRY_SECONDS) },
      );
    }
    let result: HttpResult;
    try {
      result = await execute();
    } catch (err) {
      await claim.forget();
      throw err;
    }
    await claim.remember(result.status, result.body);
    return { ...result, headers: { ...headers, ...(result.headers ?? {}) } };
  });
}
