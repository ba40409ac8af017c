/**
 * Area C's wire shapes for the OpenAPI document: the catalog, discovery and agent card, the checkout
 * session (its request bodies come from the checks themselves, acp/domain/checkout-request.ts), and the area's error bodies (document.ts answers ACP routes' errors in
 * them, authentication aside).
 */
import * as z from 'zod';
import { isoTime, uuid } from '../../kernel/openapi-kit';

export const rateLimitedAcp = z.object({ error: z.string() }).meta({ title: 'AcpRateLimited', description: 'Area C 429: `{ error: string }`' });
export const acpError = z
  .object({
    type: z.enum(['invalid_request', 'request_not_idempotent', 'processing_error', 'service_unavailable']),
    code: z.string(),
    message: z.string(),
    param: z.optional(z.string()),
    supported_versions: z.optional(z.array(z.string())),
  })
  .meta({ title: 'AcpError', description: 'The ACP `Error` object (area C errors other than authentication and 429)' });

const minor = z.int().meta({ description: 'Amount in minor units (1800 = 18.00)' });
export const acpProducts = z
  .object({
    products: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        variants: z.array(z.object({ id: z.string(), title: z.string(), price: z.object({ amount: minor, currency: z.string() }) })),
      }),
    ),
  })
  .meta({ title: 'ProductsResponse', description: 'The ACP feed `ProductsResponse` (active products)' });
export const acpDiscovery = z
  .object({ protocol: z.object({ name: z.literal('acp'), version: z.string() }), api_base_url: z.string() })
  .meta({ title: 'DiscoveryResponse' });
// The A2A 1.0 Agent Card in A2A's JSON form (the camelCase ProtoJSON names of A2A's protocol definition), as this platform fills it.
const a2aInterface = z.object({ url: z.string(), protocolBinding: z.string(), protocolVersion: z.string() }).meta({ title: 'AgentInterface' });
const acpExtension = z
  .object({
    uri: z.literal('https://github.com/agentic-commerce-protocol/agentic-commerce-protocol'),
    description: z.string(),
    required: z.literal(true),
    params: z.object({
      acp_version: z.string(),
      api_base_url: z.string().meta({ description: 'The ACP REST API of the app: `{base_url}/acp/{appId}`' }),
      transports: z.array(z.literal('rest')),
      services: z.array(z.string()),
      supported_currencies: z.array(z.string()),
    }),
  })
  .meta({ title: 'AgentExtension', description: 'The Agentic Commerce Protocol extension: where and how to reach the checkout' });
export const agentCard = z
  .object({
    name: z.string(),
    description: z.string(),
    supportedInterfaces: z
      .array(a2aInterface)
      .max(0)
      .meta({ description: 'Empty: the platform serves no A2A protocol binding; the ACP API is named by the ACP extension' }),
    version: z.string(),
    capabilities: z.object({ streaming: z.boolean(), pushNotifications: z.boolean(), extensions: z.array(acpExtension) }),
    securitySchemes: z.object({
      acpKey: z.object({ httpAuthSecurityScheme: z.object({ description: z.string(), scheme: z.literal('Bearer'), bearerFormat: z.string() }) }),
    }),
    securityRequirements: z.array(z.object({ schemes: z.record(z.string(), z.object({ list: z.optional(z.array(z.string())) })) })),
    defaultInputModes: z.array(z.string()),
    defaultOutputModes: z.array(z.string()),
    skills: z.array(z.object({ id: z.string(), name: z.string(), description: z.string(), tags: z.array(z.string()), examples: z.array(z.string()) })),
  })
  .meta({
    title: 'AgentCard',
    description: 'An A2A 1.0 Agent Card describing the checkout (A2A JSON: camelCase ProtoJSON names, fields at their default value left out)',
  });
// Checkout request bodies: closed at every depth like ACP's request objects (an undefined member is a 400 naming it).
export const checkoutSession = z
  .object({
    id: uuid,
    protocol: z.object({ version: z.string() }),
    status: z.enum(['not_ready_for_payment', 'ready_for_payment', 'complete_in_progress', 'completed', 'canceled', 'expired']),
    currency: z.string(),
    line_items: z.array(z.object({ id: z.string(), product_id: uuid, quantity: z.int(), unit_amount: minor })),
    totals: z.array(z.object({ type: z.string(), display_text: z.string(), amount: minor })).meta({
      description:
        '`items_base_amount`, `subtotal`, `tax` (the app’s rate on the subtotal, rounded half-up), `fulfillment` and `total` = subtotal + fulfillment + tax',
    }),
    fulfillment_options: z.array(z.object({ type: z.string(), id: z.string() })),
    messages: z.array(z.object({ type: z.string(), content: z.string() })),
    links: z
      .array(z.object({ type: z.enum(['terms_of_use', 'privacy_policy', 'return_policy']), title: z.string(), url: z.string() }))
      .meta({ description: "The merchant's policies the app sets (ACP `Link`s); empty when none" }),
    capabilities: z.object({}),
    created_at: isoTime,
    updated_at: isoTime,
    expires_at: isoTime,
    order: z.optional(z.object({ type: z.literal('order'), id: uuid, checkout_session_id: uuid, permalink_url: z.string(), status: z.string() })),
  })
  .meta({ title: 'CheckoutSession', description: 'The ACP `CheckoutSession` (with `order` once completed)' });
