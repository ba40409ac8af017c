/**
 * The wire shapes of the public API as zod schemas, for the OpenAPI document (functions/openapi/
 * document.ts). Objects are open (clients ignore fields they do not recognize, spec "Versioning") but
 * every documented field is required with its exact type; the handler tests validate every response
 * they receive against the document, so a shape that drifts from the code fails a test.
 * Not bundled into the API functions: only the document's route and `npm run openapi` load it.
 */
import * as z from 'zod';

const isoTime = z.string().meta({ format: 'date-time', description: 'ISO 8601, UTC, millisecond precision' });
const uuid = z.string().meta({ format: 'uuid' });

// ---- Errors -------------------------------------------------------------------------------------

export const errorObject = z.object({ error: z.object({ code: z.string(), message: z.string() }) }).meta({ title: 'Error', description: '`{ error: { code, message } }` (areas A and D, area C authentication)' });
export const chatError = z
  .union([z.object({ error: z.string() }), z.object({ error: z.string(), message: z.string() })])
  .meta({ title: 'ChatError', description: 'Area B: `{ error: message }`, or `{ error: CODE, message }` for the 422 image codes' });
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

// ---- Area A -------------------------------------------------------------------------------------

export const exportApp = z.object({ id: uuid, name: z.string(), slug: z.string(), created_at: isoTime, updated_at: isoTime }).meta({ title: 'App' });
const queryParam = z.object({ name: z.string(), value: z.string() });
const sessionSubset = {
  id: uuid,
  app_id: uuid,
  consumer_id: z.nullable(uuid),
  consumer_email: z.nullable(z.string()),
  title: z.string(),
  source: z.string(),
  external_id: z.nullable(z.string()),
  query_params: z.array(queryParam),
  started_at: isoTime,
};
export const exportSessionSubset = z.object(sessionSubset).meta({ title: 'SessionSubset' });
export const exportSession = z
  .object({ ...sessionSubset, ended_at: isoTime, last_activity_at: isoTime, last_message_at: z.nullable(isoTime) })
  .meta({ title: 'Session' });
const toolMarker = z.object({ id: z.optional(z.string()), name: z.optional(z.string()), type: z.optional(z.string()), component: z.optional(z.string()), success: z.optional(z.boolean()) });
export const exportMessage = z
  .object({ id: uuid, role: z.enum(['user', 'assistant', 'system']), content: z.string(), created_at: isoTime, tools: z.optional(z.array(toolMarker)) })
  .meta({ title: 'Message' });
export const exportUsageRow = z
  .object({
    id: z.int(),
    app_id: uuid,
    session_id: z.nullable(uuid),
    consumer_id: z.nullable(uuid),
    model: z.string(),
    source: z.string(),
    input_tokens: z.int(),
    output_tokens: z.int(),
    cache_read_input_tokens: z.int(),
    cache_creation_input_tokens: z.int(),
    cost_usd: z.string().meta({ description: 'Decimal USD amount as a string' }),
    created_at: isoTime,
  })
  .meta({ title: 'UsageRow' });
export const exportTombstone = z
  .object({ id: z.string().meta({ description: 'Monotonic tie-break; opaque' }), resource_type: z.string(), resource_id: z.string(), cause: z.string(), deleted_at: isoTime })
  .meta({ title: 'Tombstone' });
const pagination = z.object({ next_cursor: z.string(), has_more: z.boolean(), limit: z.int() });
export const listOf = (item: z.ZodType, title: string) => z.object({ data: z.array(item), pagination }).meta({ title });
export const appsList = z.object({ data: z.array(exportApp) }).meta({ title: 'AppList' });
export const sessionMessages = z
  .object({ data: z.object({ session: exportSessionSubset, messages: z.array(exportMessage), zdr: z.boolean() }) })
  .meta({ title: 'SessionMessages' });

// ---- Area B -------------------------------------------------------------------------------------

const chatMessage = z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.string() });
export const chatRequest = z
  .strictObject({
    model: z.string().meta({ description: "The app's appNameId (appname-<number>)" }),
    messages: z.array(chatMessage).min(1),
    stream: z.optional(z.boolean()),
    stream_options: z.optional(z.strictObject({ include_usage: z.optional(z.boolean()) })),
    chatSessionId: z.optional(uuid),
    variables: z.optional(z.record(z.string().max(64), z.string().max(2048)).meta({ description: 'Up to 20 session variables' })),
    files: z.optional(z.array(z.object({ fileId: uuid, fileName: z.string() })).max(100)),
    temperature: z.optional(z.number().min(0).max(2)),
    top_p: z.optional(z.number().min(0).max(1)),
    max_tokens: z.optional(z.int().min(1)),
    max_completion_tokens: z.optional(z.int().min(1)),
    stop: z.optional(z.union([z.string(), z.array(z.string())])),
  })
  .meta({ title: 'ChatCompletionRequest' });
const usage = z.object({ prompt_tokens: z.int(), completion_tokens: z.int(), total_tokens: z.int() });
export const chatCompletion = z
  .object({
    chatSessionId: uuid,
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.int(),
    model: z.string(),
    choices: z.array(z.object({ index: z.int(), message: z.object({ role: z.string(), content: z.string() }), finish_reason: z.string() })),
    usage,
  })
  .meta({ title: 'ChatCompletion' });
export const chatStream = z.string().meta({
  title: 'ChatCompletionChunks',
  description: 'Server-Sent Events: `data: {chat.completion.chunk with chatSessionId}` events, then `data: [DONE]`',
});
export const uploadRequest = z.object({ file: z.string().meta({ format: 'binary', description: 'One file: PNG, JPEG, GIF, WebP, PDF or DOCX, up to 20 MiB' }) });
export const uploadedFile = z.object({ fileId: uuid, fileName: z.string(), mimeType: z.string(), size: z.int() }).meta({ title: 'UploadedFile' });

// ---- Area C -------------------------------------------------------------------------------------

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
export const acpDiscovery = z.object({ protocol: z.object({ name: z.literal('acp'), version: z.string() }), api_base_url: z.string() }).meta({ title: 'DiscoveryResponse' });
export const agentCard = z.object({ name: z.string(), url: z.string(), version: z.string() }).meta({ title: 'AgentCard', description: 'An A2A agent card describing the checkout' });
const lineItemInput = z.object({ product_id: uuid, quantity: z.optional(z.int().min(1).max(10_000)) });
export const checkoutCreate = z
  .object({ line_items: z.array(lineItemInput).min(1).max(100), currency: z.optional(z.string()), buyer: z.optional(z.object({ email: z.string() })) })
  .meta({ title: 'CheckoutSessionCreateRequest', description: 'ACP 2026-04-17 create request (closed: undefined fields are a 400); ACP line-item variants `{id}` and `{item: {id}}` are accepted too' });
export const checkoutUpdate = z
  .object({ line_items: z.optional(z.array(lineItemInput)), buyer: z.optional(z.nullable(z.object({ email: z.string() }))) })
  .meta({ title: 'CheckoutSessionUpdateRequest' });
export const checkoutComplete = z
  .object({
    payment_data: z.object({
      handler_id: z.optional(z.string()),
      instrument: z.optional(z.object({ type: z.string(), credential: z.object({ type: z.string(), token: z.string() }) })),
    }),
  })
  .meta({ title: 'CheckoutSessionCompleteRequest' });
export const checkoutCancel = z.object({ intent_trace: z.optional(z.object({ reason_code: z.string() })) }).meta({ title: 'CancelSessionRequest' });
export const checkoutSession = z
  .object({
    id: uuid,
    protocol: z.object({ version: z.string() }),
    status: z.enum(['not_ready_for_payment', 'ready_for_payment', 'complete_in_progress', 'completed', 'canceled', 'expired']),
    currency: z.string(),
    line_items: z.array(z.object({ id: z.string(), product_id: uuid, quantity: z.int(), unit_amount: minor })),
    totals: z.array(z.object({ type: z.string(), display_text: z.string(), amount: minor })),
    fulfillment_options: z.array(z.object({ type: z.string(), id: z.string() })),
    messages: z.array(z.object({ type: z.string(), content: z.string() })),
    links: z.array(z.unknown()),
    capabilities: z.object({}),
    created_at: isoTime,
    updated_at: isoTime,
    expires_at: isoTime,
    order: z.optional(z.object({ type: z.literal('order'), id: uuid, checkout_session_id: uuid, permalink_url: z.string(), status: z.string() })),
  })
  .meta({ title: 'CheckoutSession', description: 'The ACP `CheckoutSession` (with `order` once completed)' });

// ---- Area D -------------------------------------------------------------------------------------

export const subscriptionCreate = z
  .strictObject({
    callbackUrl: z.string().meta({ format: 'uri', description: 'HTTPS; not a private, loopback or link-local address' }),
    areas: z.optional(z.array(z.string())),
    categories: z.optional(z.array(z.string())),
  })
  .meta({ title: 'SubscriptionCreateRequest' });
const subscriptionFields = {
  id: uuid,
  callbackUrl: z.string(),
  areas: z.array(z.string()),
  categories: z.array(z.string()),
  isActive: z.boolean(),
  maskedSecret: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
};
export const subscription = z.object(subscriptionFields).meta({ title: 'Subscription' });
export const subscriptionCreated = z.object({ data: z.object({ ...subscriptionFields, secret: z.string().meta({ description: 'Shown once' }) }) }).meta({ title: 'SubscriptionCreated' });
export const subscriptionsList = z.object({ data: z.array(subscription) }).meta({ title: 'SubscriptionList' });
export const deliveriesList = z
  .object({
    data: z.array(
      z.object({
        periodId: z.string(),
        periodStart: isoTime,
        periodEnd: isoTime,
        attempt: z.int(),
        attemptedAt: isoTime,
        latencyMs: z.int(),
        outcome: z.string(),
        httpStatus: z.nullable(z.int()),
        error: z.nullable(z.string()),
      }),
    ),
  })
  .meta({ title: 'DeliveryList' });
export const rssFeed = z.string().meta({ title: 'RssFeed', description: 'RSS 2.0 with the Atom and content namespaces, newest period first' });
