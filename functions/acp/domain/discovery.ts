/**
 * The public discovery documents of an app's ACP surface (`{base_url}/acp/{appId}`): the catalog in
 * the ACP feed's `ProductsResponse` shape, ACP's own discovery document (`DiscoveryResponse`) and an
 * A2A 1.0 Agent Card with its entity tag. Pure builders: no secret and nothing of any other app goes in.
 */
import { createHash } from 'node:crypto';
import type { Product } from './product';

/** The ACP version this platform implements, and every version it accepts (oldest first). */
export const ACP_VERSION = '2026-04-17';
export const ACP_SUPPORTED_VERSIONS: readonly string[] = [ACP_VERSION];

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

/** The A2A extension that names the app's ACP REST API: the one way in, since the card has no A2A interface. */
export const ACP_EXTENSION_URI = 'https://github.com/agentic-commerce-protocol/agentic-commerce-protocol';

/**
 * An A2A 1.0 Agent Card describing the app's checkout, in A2A's JSON form (ProtoJSON field names) and
 * canonical (required fields always present, other fields only when set). The platform serves no A2A
 * protocol binding, so `supportedInterfaces` is empty and no client is sent to an endpoint that does
 * not answer A2A; the ACP REST API is named by the required ACP extension (docs/adr/0032).
 */
export function agentCard(input: { baseUrl: string; appId: string; appName: string; currencies: readonly string[] }) {
  const url = acpBaseUrl(input.baseUrl, input.appId);
  const skill = (id: string, name: string, description: string, examples: string[]) => ({ id, name, description, tags: SKILL_TAGS, examples });
  return {
    name: input.appName,
    description:
      `Product catalog and checkout of ${input.appName}, over the Agentic Commerce Protocol (${ACP_VERSION}) REST API at ${url}. ` +
      'No A2A protocol binding is served: use the ACP API named by the ACP extension in capabilities.extensions.',
    supportedInterfaces: [],
    version: '1.0.0',
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extensions: [
        {
          uri: ACP_EXTENSION_URI,
          description: 'Agentic Commerce Protocol checkout over REST at params.api_base_url',
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
    securitySchemes: {
      acpKey: {
        httpAuthSecurityScheme: {
          description: 'An ACP key of this app (acp_ and 32 characters) for the checkout sessions; the catalog is public',
          scheme: 'Bearer',
          bearerFormat: 'acp_<32 characters>',
        },
      },
    },
    // A requirement without scopes: the empty scope list is a default value, left out as A2A's canonical form does.
    securityRequirements: [{ schemes: { acpKey: {} } }],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
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

/** The card as it is sent: its JSON text, and a strong entity tag that is a hash of exactly those bytes. */
export function agentCardRepresentation(card: ReturnType<typeof agentCard>): { json: string; etag: string } {
  const json = JSON.stringify(card);
  return { json, etag: `"${createHash('sha256').update(json, 'utf8').digest('base64url')}"` };
}

/** One member of an `If-None-Match` list: an entity tag, weak or not, or nothing (empty members are allowed). */
const LIST_MEMBER = /[ \t]*(?:(?:W\/)?("[\x21\x23-\x7e\x80-\xff]*"))?[ \t]*(?:,|$)/y;

/** The opaque tags of an `#entity-tag` list, or undefined when the value is not one. */
function opaqueTags(value: string): string[] | undefined {
  const member = new RegExp(LIST_MEMBER.source, 'y');
  const tags: string[] = [];
  while (member.lastIndex < value.length) {
    const from = member.lastIndex;
    const m = member.exec(value);
    if (!m || member.lastIndex === from) return undefined;
    if (m[1]) tags.push(m[1]);
  }
  return tags;
}

/**
 * Whether a GET carrying this `If-None-Match` value is answered 304 for the representation tagged
 * `etag` (RFC 9110 §13.1.2): `*` matches any current representation, and a list matches when one of
 * its tags has our opaque tag, `W/` or not (the weak comparison this field calls for). A value that is
 * not a valid field value is ignored, as if absent: a 200 is never a wrong answer.
 */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const ours = etag.replace(/^W\//, '');
  return opaqueTags(ifNoneMatch)?.includes(ours) ?? false;
}
