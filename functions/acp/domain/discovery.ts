/**
 * The public discovery documents of an app's ACP surface (`{base_url}/acp/{appId}`): the catalog in
 * the ACP feed's `ProductsResponse` shape, ACP's own discovery document (`DiscoveryResponse`) and an
 * A2A Agent Card. Pure builders: no secret and nothing of any other app goes in.
 */
import type { Product } from './product';

/** The ACP version this platform implements, and every version it accepts (oldest first). */
export const ACP_VERSION = '2026-04-17';
export const ACP_SUPPORTED_VERSIONS: readonly string[] = [ACP_VERSION];
export const A2A_PROTOCOL_VERSION = '0.3.0';

/** `{base_url}/acp/{appId}`: every document names the app's API by it and by nothing else. */
export function acpBaseUrl(baseUrl: string, appId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/acp/${appId}`;
}

/** The feed's `ProductsResponse`: single-variant products whose variant id is the product id (the checkout item id). */
export function productsResponse(products: readonly Product[]) {
  return {
    products: products.map((p) => {
      const available = p.active && (p.inventory === null || p.inventory > 0);
      return {
        id: p.id,
        title: p.title,
        ...(p.description ? { description: { plain: p.description } } : {}),
        ...(p.imageUrl ? { media: [{ type: 'image', url: p.imageUrl, alt_text: p.title }] } : {}),
        variants: [
          {
            id: p.id,
            title: p.title,
            // The feed writes currencies upper case; checkout uses lower case.
            price: { amount: p.priceMinor, currency: p.currency.toUpperCase() },
            availability: { available, status: available ? 'in_stock' : 'out_of_stock' },
          },
        ],
      };
    }),
  };
}

/** ACP's `/.well-known/acp.json` (`DiscoveryResponse`). */
export function acpDiscovery(input: { baseUrl: string; appId: string; currencies: readonly string[] }) {
  return {
    protocol: { name: 'acp', version: ACP_VERSION, supported_versions: [...ACP_SUPPORTED_VERSIONS] },
    api_base_url: acpBaseUrl(input.baseUrl, input.appId),
    transports: ['rest'],
    capabilities: {
      services: ['checkout'],
      ...(input.currencies.length ? { supported_currencies: [...new Set(input.currencies)].sort() } : {}),
    },
  };
}

const SKILL_TAGS = ['commerce', 'checkout', 'acp'];

/** An A2A Agent Card (v0.3 shape) describing the app's checkout: a descriptive document, not a JSON-RPC endpoint. */
export function agentCard(input: { baseUrl: string; appId: string; appName: string; currencies: readonly string[] }) {
  const url = acpBaseUrl(input.baseUrl, input.appId);
  const skill = (id: string, name: string, description: string, examples: string[]) => ({ id, name, description, tags: SKILL_TAGS, examples });
  return {
    name: input.appName,
    description: `Product catalog and checkout of ${input.appName}, over the Agentic Commerce Protocol (${ACP_VERSION}).`,
    url,
    version: '1.0.0',
    protocolVersion: A2A_PROTOCOL_VERSION,
    preferredTransport: 'HTTP+JSON',
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extensions: [
        {
          uri: 'https://github.com/agentic-commerce-protocol/agentic-commerce-protocol',
          description: 'Agentic Commerce Protocol checkout',
          required: true,
          params: {
            acp_version: ACP_VERSION,
            api_base_url: url,
            transports: ['rest'],
            services: ['checkout'],
            supported_currencies: [...new Set(input.currencies)].sort(),
          },
        },
      ],
    },
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    securitySchemes: { acpKey: { type: 'http', scheme: 'bearer', bearerFormat: 'acp_<32 characters>' } },
    security: [{ acpKey: [] }],
    skills: [
      skill('list_products', 'List products', `GET ${url}/products: the active products with prices (public, no key).`, ['What can I buy here?']),
      skill('create_checkout_session', 'Create a checkout session', `POST ${url}/checkout_sessions with line_items [{product_id, quantity}].`, [
        'Buy two of the first product',
      ]),
      skill('get_checkout_session', 'Read a checkout session', `GET ${url}/checkout_sessions/{id}.`, ['What is the total of my checkout?']),
      skill('update_checkout_session', 'Update a checkout session', `POST ${url}/checkout_sessions/{id}.`, ['Make it three']),
      skill('complete_checkout_session', 'Complete a checkout session', `POST ${url}/checkout_sessions/{id}/complete with payment_data.`, [
        'Pay with my saved card',
      ]),
      skill('cancel_checkout_session', 'Cancel a checkout session', `POST ${url}/checkout_sessions/{id}/cancel.`, ['Cancel my order']),
    ],
  };
}
