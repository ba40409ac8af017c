/**
 * Area C's part of the OpenAPI document: one entry per public ACP route (acp/acp-routes.ts), joined
 * with the other areas' in functions/openapi/operations.ts.
 */
import * as z from 'zod';
import { json, type OperationDoc, type QueryParamDoc } from '../../platform/openapi/openapi-kit';
import * as s from './acp-schemas';
import { requestBodySchema } from '../domain/checkout-request';

const ACP_PUBLIC_ERRORS = [404, 429, 500];
const ACP_CHECKOUT_ERRORS = [400, 401, 403, 404, 405, 409, 413, 422, 429, 500, 503];
const acpHeaders: Record<string, QueryParamDoc> = {
  'API-Version': { schema: z.string(), description: 'ACP version, default 2026-04-17; another is a 400 with supported_versions' },
  'Request-Id': { schema: z.string(), description: 'Echoed in the response' },
};
const acpPostHeaders: Record<string, QueryParamDoc> = {
  ...acpHeaders,
  'Idempotency-Key': {
    schema: z.string().min(1).max(255),
    description: 'A repeat returns the first answer (Idempotent-Replayed: true); another body with the same key is 422; one in flight is 409 with Retry-After',
  },
};

export const ACP_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  acpProductsList: {
    tag: 'ACP checkout',
    summary: "The app's catalog (ACP feed ProductsResponse)",
    ok: { status: 200, description: 'Active products', content: json(s.acpProducts) },
    errors: ACP_PUBLIC_ERRORS,
  },
  acpAgentCard: {
    tag: 'ACP checkout',
    summary: 'A2A agent card of the checkout',
    ok: { status: 200, description: 'The agent card', content: json(s.agentCard) },
    errors: ACP_PUBLIC_ERRORS,
  },
  acpAgentCardV3: {
    tag: 'ACP checkout',
    summary: 'A2A agent card (agent-card.json)',
    ok: { status: 200, description: 'The agent card', content: json(s.agentCard) },
    errors: ACP_PUBLIC_ERRORS,
  },
  acpDiscovery: {
    tag: 'ACP checkout',
    summary: 'ACP discovery document',
    ok: { status: 200, description: 'The DiscoveryResponse', content: json(s.acpDiscovery) },
    errors: ACP_PUBLIC_ERRORS,
  },
  acpCheckoutCreate: {
    tag: 'ACP checkout',
    summary: 'Create a checkout session',
    headers: acpPostHeaders,
    body: { contentType: 'application/json', schema: requestBodySchema('create'), required: true },
    ok: { status: 201, description: 'The session, with server-computed totals', content: json(s.checkoutSession) },
    errors: ACP_CHECKOUT_ERRORS,
  },
  acpCheckoutGet: {
    tag: 'ACP checkout',
    summary: 'Read a checkout session',
    headers: acpHeaders,
    ok: { status: 200, description: 'The session', content: json(s.checkoutSession) },
    errors: ACP_CHECKOUT_ERRORS,
  },
  acpCheckoutUpdate: {
    tag: 'ACP checkout',
    summary: 'Update a checkout session',
    headers: acpPostHeaders,
    body: { contentType: 'application/json', schema: requestBodySchema('update') },
    ok: { status: 200, description: 'The session', content: json(s.checkoutSession) },
    errors: ACP_CHECKOUT_ERRORS,
  },
  acpCheckoutComplete: {
    tag: 'ACP checkout',
    summary: 'Complete (pay for) a checkout session',
    description:
      'Holds the stock, charges, and answers the session `completed` with its order; `complete_in_progress` when the payment outcome is not known yet.',
    headers: acpPostHeaders,
    body: { contentType: 'application/json', schema: requestBodySchema('complete'), required: true },
    ok: { status: 200, description: 'The session', content: json(s.checkoutSession) },
    errors: ACP_CHECKOUT_ERRORS,
  },
  acpCheckoutCancel: {
    tag: 'ACP checkout',
    summary: 'Cancel a checkout session',
    headers: acpPostHeaders,
    body: { contentType: 'application/json', schema: requestBodySchema('cancel') },
    ok: { status: 200, description: 'The canceled session', content: json(s.checkoutSession) },
    errors: ACP_CHECKOUT_ERRORS,
  },
};
