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
 * What the use case decides on is read once, in one batch while the key is claimed: the app (its
 * policies, its tax rate), the path's session, the products the body names and, for a complete, the
 * app's order-event receiver (acp/app/acp-ports.ts, CheckoutReader).
 */
import { checkoutView, invalid, parseLineItems, policyLinks, type CheckoutSession } from '../domain/checkout';
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
import type { CheckoutSnapshot } from '../app/acp-ports';
import { isUuid } from '../../kernel/domain/ids';

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
  /** What the request read ahead for its use case. */
  readonly readAhead: CheckoutSnapshot;
}

/** The products a body's line items name; none when they do not parse (the use case refuses them, after the claim). */
function productIdsOf(body: Record<string, unknown>): string[] {
  try {
    return parseLineItems(body, false)?.map((line) => line.productId) ?? [];
  } catch {
    return [];
  }
}

export function checkoutRoute(
  routeId: CheckoutRouteId,
  deps: AcpCheckoutDeps,
  run: (req: HttpRequest<KeyCaller>, input: CheckoutInput) => Promise<{ readonly status: number; readonly session: CheckoutSession }>,
  /** `orderWebhook`: the route may sell, so it reads the app's order-event receiver ahead too. */
  options: { readonly orderWebhook?: boolean } = {},
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
    const readAhead = (body: Record<string, unknown>): Promise<CheckoutSnapshot> => {
      const reading = deps.checkoutReader.read({
        appId: req.grant!.appId!,
        ...(isUuid(checkoutSessionId) ? { sessionId: checkoutSessionId } : {}),
        productIds: productIdsOf(body),
        orderWebhook: options.orderWebhook ?? false,
      });
      reading.catch(() => undefined); // awaited by execute; this only keeps a read no answer needs (a replay's) from going unhandled
      return reading;
    };
    const execute = async (body: Record<string, unknown>, reading: Promise<CheckoutSnapshot>): Promise<HttpResult> => {
      // Read first: a failure must come before the use case writes (or charges), never after.
      const snapshot = await reading;
      const { status, session } = await run(req, { checkoutSessionId, body, readAhead: snapshot });
      return { status, body: checkoutView(session, deps.payments.handlers(), publicBaseUrl(deps, req), policyLinks(snapshot.app?.settings.acp)) };
    };
    if (route.method !== 'POST') {
      const result = await execute({}, readAhead({}));
      return { ...result, headers: { ...echo, ...(result.headers ?? {}) } };
    }
    // An empty header names no key either.
    const sentKey = 'Idempotency-Key' in sent ? sent['Idempotency-Key'] : undefined;
    if (!sentKey) return acpError(400, 'idempotency_key_required', IDEMPOTENCY_MESSAGES.required, {}, echo);
    const idempotencyKey = idempotencyKeyOf(sentKey, (message) => invalid('invalid', message))!;
    const body = (await readBody(declaration, req)) ?? {};
    const headers = { ...echo, 'Idempotency-Key': idempotencyKey };
    const scope = `${req.grant!.keyId}:${route.id}:${checkoutSessionId}:${idempotencyKey}`;
    // Read while the key is claimed: the reads change nothing, and a replay does not use them.
    const reading = readAhead(body);
    const claim = await claimIdempotencyKey(deps, { scope, request: body });
    if (claim.state === 'replay') return { status: claim.status, body: claim.body, headers: { ...headers, 'Idempotent-Replayed': 'true' } };
    if (claim.state === 'conflict') return acpError(422, 'idempotency_conflict', IDEMPOTENCY_MESSAGES.conflict, {}, headers);
    if (claim.state === 'in_flight') {
      return acpError(409, 'idempotency_in_flight', IDEMPOTENCY_MESSAGES.inFlight, {}, { ...headers, 'Retry-After': String(IN_FLIGHT_RETRY_SECONDS) });
    }
    let result: HttpResult;
    try {
      result = await execute(body, reading);
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
