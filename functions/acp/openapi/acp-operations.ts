/**
 * Area C's part of the OpenAPI document: one entry per public ACP route (acp/acp-routes.ts), joined
 * with the other areas' in functions/openapi/operations.ts.
 */
import * as z from 'zod';
import type { RequestDeclaration } from '../../kernel/http/request-declaration';
import { json, type OperationDoc } from '../../kernel/openapi-kit';
import * as s from './acp-schemas';
import { ACP_DISCOVERY_REQUESTS } from './acp-discovery-requests';
import { ACP_REQUESTS } from './acp-requests';

const ACP_PUBLIC_ERRORS = [404, 429, 500];
const ACP_CHECKOUT_ERRORS = [400, 401, 403, 404, 405, 409, 413, 422, 429, 500, 503];
const requestIdEcho = { 'Request-Id': { schema: z.string(), description: 'The request’s `Request-Id`, when it sent one' } };
const acpPostAnswerHeaders = {
  'Idempotency-Key': { schema: z.string(), description: 'The request’s key, echoed' },
  'Idempotent-Replayed': { schema: z.literal('true'), description: 'Present when the answer is the stored answer of an earlier request with this key' },
  ...requestIdEcho,
};
const VERSION_400 = '`missing_api_version` or `unsupported_api_version` (with `supported_versions`)';
const acpGetErrors = { 400: `ACP \`Error\`: ${VERSION_400}` };
const acpPostErrors = {
  400: `ACP \`Error\`: ${VERSION_400}; \`idempotency_key_required\` (no \`Idempotency-Key\`); or a request the operation refuses (\`invalid\`, \`missing\`, \`invalid_item_id\`, \`unsupported\`, \`not_ready_for_payment\`; \`param\` names the field)`,
  409: '`idempotency_in_flight`: a request with this `Idempotency-Key` is still being processed (retry after `Retry-After`); or another request is completing or changing the session',
  422: '`idempotency_conflict`: this `Idempotency-Key` was used with another request body (permanent: send a new key)',
};

const AGENT_CARD_CACHING =
  'The card names no A2A interface (the platform serves no A2A protocol binding): the ACP extension in `capabilities.extensions` names the ACP REST API. ' +
  'The answer carries `Cache-Control: public, max-age=3600` and a strong `ETag`, a hash of the body. A request whose `If-None-Match` matches it ' +
  '(`*`, or a list holding the tag, `W/` or not) is answered 304 with no body and the same `ETag` and `Cache-Control`.';
const agentCardHeaders = {
  'Cache-Control': { schema: z.string(), description: '`public, max-age=3600`' },
  ETag: { schema: z.string(), description: 'A strong entity tag of the card: the quoted base64url SHA-256 of the body' },
};
const agentCardOperation = (summary: string, request: RequestDeclaration): OperationDoc => ({
  tag: 'ACP checkout',
  request,
  summary,
  description: AGENT_CARD_CACHING,
  ok: { status: 200, description: 'The A2A 1.0 Agent Card', content: json(s.agentCard), headers: agentCardHeaders },
  bodyless: { 304: { description: 'Not modified: `If-None-Match` matched the current `ETag`; no body', headers: agentCardHeaders } },
  errors: ACP_PUBLIC_ERRORS,
});

export const ACP_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  acpProductsList: {
    tag: 'ACP checkout',
    summary: "The app's catalog (ACP feed ProductsResponse)",
    description: 'The app’s active products as an ACP product feed. Public, rate-limited per client IP.',
    request: ACP_DISCOVERY_REQUESTS.acpProductsList,
    ok: { status: 200, description: 'Active products', content: json(s.acpProducts) },
    errors: ACP_PUBLIC_ERRORS,
  },
  acpAgentCard: agentCardOperation(
    'A2A 1.0 Agent Card of the checkout, at its pre-0.3 path (the same card as agent-card.json)',
    ACP_DISCOVERY_REQUESTS.acpAgentCard,
  ),
  acpAgentCardV3: agentCardOperation('A2A 1.0 Agent Card of the checkout (agent-card.json)', ACP_DISCOVERY_REQUESTS.acpAgentCardV3),
  acpDiscovery: {
    tag: 'ACP checkout',
    summary: 'ACP discovery document',
    description: 'What the app’s checkout supports: the protocol version, payment handlers and capabilities. Public, rate-limited per client IP.',
    request: ACP_DISCOVERY_REQUESTS.acpDiscovery,
    ok: { status: 200, description: 'The DiscoveryResponse', content: json(s.acpDiscovery) },
    errors: ACP_PUBLIC_ERRORS,
  },
  acpCheckoutCreate: {
    tag: 'ACP checkout',
    summary: 'Create a checkout session',
    description:
      'Opens a checkout session for line items of the app’s catalog, totals computed by the server. A repeated `Idempotency-Key` with the same body answers the stored answer.',
    request: ACP_REQUESTS.acpCheckoutCreate,
    ok: { status: 201, description: 'The session, with server-computed totals', content: json(s.checkoutSession), headers: acpPostAnswerHeaders },
    errors: ACP_CHECKOUT_ERRORS,
    errorDescriptions: acpPostErrors,
  },
  acpCheckoutGet: {
    tag: 'ACP checkout',
    summary: 'Read a checkout session',
    description: 'The session as it stands: lines, totals, messages, and its order once completed.',
    request: ACP_REQUESTS.acpCheckoutGet,
    ok: { status: 200, description: 'The session', content: json(s.checkoutSession), headers: requestIdEcho },
    errors: ACP_CHECKOUT_ERRORS,
    errorDescriptions: acpGetErrors,
  },
  acpCheckoutUpdate: {
    tag: 'ACP checkout',
    summary: 'Update a checkout session',
    description: 'Changes the session’s line items, buyer or fulfillment details; the totals are computed again.',
    request: ACP_REQUESTS.acpCheckoutUpdate,
    ok: { status: 200, description: 'The session', content: json(s.checkoutSession), headers: acpPostAnswerHeaders },
    errors: ACP_CHECKOUT_ERRORS,
    errorDescriptions: acpPostErrors,
  },
  acpCheckoutComplete: {
    tag: 'ACP checkout',
    summary: 'Complete (pay for) a checkout session',
    description:
      'Holds the stock, charges, and answers the session `completed` with its order; `complete_in_progress` when the payment outcome is not known yet.',
    request: ACP_REQUESTS.acpCheckoutComplete,
    ok: { status: 200, description: 'The session', content: json(s.checkoutSession), headers: acpPostAnswerHeaders },
    errors: ACP_CHECKOUT_ERRORS,
    errorDescriptions: acpPostErrors,
  },
  acpCheckoutCancel: {
    tag: 'ACP checkout',
    summary: 'Cancel a checkout session',
    description: 'Cancels a session that is not completed; a canceled session cannot be completed.',
    request: ACP_REQUESTS.acpCheckoutCancel,
    ok: { status: 200, description: 'The canceled session', content: json(s.checkoutSession), headers: acpPostAnswerHeaders },
    errors: ACP_CHECKOUT_ERRORS,
    errorDescriptions: acpPostErrors,
  },
};
