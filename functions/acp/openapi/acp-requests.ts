/**
 * Area C's checkout requests, one declaration per operation (keyed by route id): the handlers read
 * their input with it and the OpenAPI document shows it (the public routes' are acp-discovery-requests.ts). Headers are read as sent: the checkout routes answer a
 * missing or unsupported `API-Version` and a missing `Idempotency-Key` in ACP's own shapes
 * (acp/http/acp-checkout.ts), in the RFC's order, before the body is read; the bodies' members are
 * checked by the request checks of acp/domain/checkout-request.ts, which the document shows.
 */
import { invalid } from '../domain/request-shape';
import { requestBodySchema, type CheckoutOperation } from '../domain/checkout-request';
import { ACP_SUPPORTED_VERSIONS } from '../domain/discovery';
import { APP_PATH as app } from './acp-discovery-requests';
import { idempotencyKeyHeader, textParam, type BodyRule, type ParamRules } from '../../kernel/http/request-declaration';

const session = { ...app, checkoutSessionId: textParam({}) };

// Checkout: ACP requires API-Version on every request and Idempotency-Key on every POST (docs/adr/0034).
const CHECKOUT_HEADERS = {
  'API-Version': textParam(
    {
      enum: [...ACP_SUPPORTED_VERSIONS],
      description:
        'The ACP version the client speaks. Missing is a 400 `missing_api_version`, another version a 400 `unsupported_api_version`; both list `supported_versions`',
    },
    { required: true },
  ),
  'Request-Id': textParam({ description: 'Echoed in the response' }),
} satisfies ParamRules;
const CHECKOUT_POST_HEADERS = {
  ...CHECKOUT_HEADERS,
  'Idempotency-Key': idempotencyKeyHeader(
    'Required on every POST (missing: 400 `idempotency_key_required`), scoped to the key, the route and the session. A repeat with the same body returns the first answer (`Idempotent-Replayed: true`); another body is 422 `idempotency_conflict`; one still running is 409 `idempotency_in_flight` with `Retry-After`. Kept 24 hours; a refused request is not kept',
    { required: true },
  ),
} satisfies ParamRules;

/** A checkout POST's body: a JSON object (none is `{}`), whose members the operation's checks read. */
const checkoutBody = (op: CheckoutOperation, required: boolean): BodyRule<Record<string, unknown>> => ({
  contentType: 'application/json',
  schema: requestBodySchema(op),
  ...(required ? { required: true } : {}),
  read: (req) => {
    const body: unknown = req.textBody().trim() ? req.jsonBody() : {};
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('invalid', 'The request body must be a JSON object');
    return body as Record<string, unknown>;
  },
});

/** The checkout routes' requests. */
export const ACP_REQUESTS = {
  acpCheckoutCreate: { path: app, headers: CHECKOUT_POST_HEADERS, body: checkoutBody('create', true) },
  acpCheckoutGet: { path: session, headers: CHECKOUT_HEADERS },
  acpCheckoutUpdate: { path: session, headers: CHECKOUT_POST_HEADERS, body: checkoutBody('update', false) },
  acpCheckoutComplete: { path: session, headers: CHECKOUT_POST_HEADERS, body: checkoutBody('complete', true) },
  acpCheckoutCancel: { path: session, headers: CHECKOUT_POST_HEADERS, body: checkoutBody('cancel', false) },
};

/** The checkout routes, whose requests acp/http/acp-checkout.ts reads. */
export type CheckoutRouteId = 'acpCheckoutCreate' | 'acpCheckoutGet' | 'acpCheckoutUpdate' | 'acpCheckoutComplete' | 'acpCheckoutCancel';
