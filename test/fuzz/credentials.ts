/**
 * Real credentials and resources for the base requests, created through the admin and public APIs the
 * way the handler tests create them: without them every mutation would stop at authentication and the
 * fuzzer would never reach validation. Several tenants and several keys each, so rotating them keeps
 * most requests under the per-org and per-key rate limits.
 */

import { ACP_VERSION } from '../../functions/acp/domain/discovery';
import { createConsoleResources, type ConsoleApi, type ConsoleResources } from './console-tenant';

/**
 * The only callback host that resolves in the fuzzed platform (platform-child.ts): to loopback, allowed
 * there as a test-only SSRF exception, where nothing listens on 443. Fuzzed admin requests publish
 * release-note periods and set order-event receivers, so deliveries happen: each is refused at once and
 * nothing leaves the machine.
 */
export const CALLBACK_HOST = 'hooks.fuzz.example';
export const CALLBACK_HOST_ADDRESS = '127.0.0.1';

export interface Tenant {
  readonly orgId: string;
  readonly appId: string;
  readonly appNameId: string;
  readonly orgKey: string;
  readonly chatKeys: readonly string[];
  readonly acpKeys: readonly string[];
  readonly productId: string;
  /** One checkout session per checkout operation, so completing or canceling one leaves the others open. */
  readonly checkoutSessions: Readonly<Record<string, string>>;
  readonly chatSessionId: string;
  /** [0] is listed and read, [1] may be deleted by a base request. */
  readonly subscriptions: readonly { readonly id: string; readonly secret: string }[];
  /** An org of its own no key belongs to, for the admin routes that rename it or change its plan. */
  readonly spareOrgId: string;
  /** An app of the org no key uses, for the admin routes that change or delete an app. */
  readonly spareAppId: string;
  /** A product no checkout names, for the admin route that changes a product. */
  readonly spareProductId: string;
  /** A placed order and its fulfillment (a shipment), for the admin order routes. */
  readonly orderId: string;
  readonly fulfillmentId: string;
  /** An imported session, for the admin route that deletes a session. */
  readonly importedSessionId: string;
  /** An owner's console session and the console's spare resources. */
  readonly console: ConsoleResources;
}

interface Api extends ConsoleApi {
  readonly adminToken: string;
}

async function call(
  api: Api,
  method: string,
  path: string,
  token: string,
  body: unknown,
  expected: number,
  headers: Record<string, string> = {},
): Promise<Record<string, any>> {
  const res = await fetch(api.baseUrl + path, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`fuzz setup: ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, any>;
}

const CHECKOUT_OPS = ['acpCheckoutGet', 'acpCheckoutUpdate', 'acpCheckoutComplete', 'acpCheckoutCancel'];

async function createTenant(api: Api, n: number): Promise<Tenant> {
  const admin = (method: string, path: string, body: unknown, expected = 201) => call(api, method, `/admin/v1${path}`, api.adminToken, body, expected);
  const org = (await admin('POST', '/orgs', { name: `Fuzz Org ${n}`, plan: 'paid' })).data;
  const app = (await admin('POST', `/orgs/${org.id}/apps`, { name: `Fuzz App ${n}` })).data;
  const orgKey = (await admin('POST', `/orgs/${org.id}/keys`, { scopes: ['apps:read', 'transcripts:read', 'usage:read', 'tombstones:read'] })).data
    .key as string;
  await admin('POST', `/orgs/${org.id}/credits`, { amountUsd: '1000' }, 200);
  const chatKeys = [(await admin('POST', `/apps/${app.id}/chat-keys`, {})).data.key, (await admin('POST', `/apps/${app.id}/chat-keys`, {})).data.key];
  const acpKeys = [(await admin('POST', `/apps/${app.id}/acp-keys`, {})).data.key, (await admin('POST', `/apps/${app.id}/acp-keys`, {})).data.key];
  const product = (await admin('POST', `/apps/${app.id}/products`, { title: 'Fuzz mug', price: 1800, currency: 'usd', inventory: 1_000_000 })).data;
  const checkoutSessions: Record<string, string> = {};
  for (const op of CHECKOUT_OPS) {
    const created = await call(api, 'POST', `/acp/${app.id}/checkout_sessions`, acpKeys[0], { line_items: [{ product_id: product.id, quantity: 1 }] }, 201, {
      'API-Version': ACP_VERSION,
      'Idempotency-Key': `fuzz-setup-${n}-${op}`,
    });
    checkoutSessions[op] = created.id as string;
  }
  const turn = await call(api, 'POST', '/api/v1/chat/completions', chatKeys[0], { model: app.appNameId, messages: [{ role: 'user', content: 'hello' }] }, 200);
  const subscriptions = [];
  for (let i = 0; i < 2; i++) {
    const created = (await call(api, 'POST', '/api/v1/release-notes/subscriptions', '', { callbackUrl: `https://${CALLBACK_HOST}/hook/${n}/${i}` }, 201)).data;
    subscriptions.push({ id: created.id as string, secret: created.secret as string });
  }
  const spareApp = (await admin('POST', `/orgs/${org.id}/apps`, { name: `Fuzz spare app ${n}` })).data;
  const spareProduct = (await admin('POST', `/apps/${app.id}/products`, { title: 'Fuzz spare', price: 100, currency: 'usd', inventory: null })).data;
  const acp = (path: string, body: unknown, expected: number, key: string) =>
    call(api, 'POST', path, acpKeys[0], body, expected, { 'API-Version': ACP_VERSION, 'Idempotency-Key': `fuzz-setup-${n}-${key}` });
  const placed = await acp(`/acp/${app.id}/checkout_sessions`, { line_items: [{ product_id: product.id, quantity: 1000 }] }, 201, 'order');
  const payment = { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_ok' } } };
  const orderId = (await acp(`/acp/${app.id}/checkout_sessions/${placed.id}/complete`, { payment_data: payment }, 200, 'order-complete')).order.id as string;
  const lineId = (await admin('GET', `/apps/${app.id}/orders/${orderId}`, undefined, 200)).data.lines[0].lineId as string;
  const shipped = (await admin('POST', `/apps/${app.id}/orders/${orderId}/fulfillments`, { type: 'shipping', lines: [{ lineId, quantity: 1 }] }, 200)).data;
  const imported = await fetch(`${api.baseUrl}/admin/v1/apps/${app.id}/imports`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${api.adminToken}`, 'Content-Type': 'application/x-ndjson' },
    body: `${JSON.stringify({ session: { title: 'Fuzz import', startedAt: '2026-01-01T00:00:00.000Z' } })}\n`,
  });
  if (imported.status !== 201) throw new Error(`fuzz setup: import answered ${imported.status}: ${await imported.text()}`);
  return {
    spareOrgId: (await admin('POST', '/orgs', { name: `Fuzz spare org ${n}`, plan: 'paid' })).data.id,
    spareAppId: spareApp.id,
    spareProductId: spareProduct.id,
    orderId,
    fulfillmentId: shipped.acpOrder.fulfillments[0].id,
    importedSessionId: ((await imported.json()) as { data: { sessionIds: string[] } }).data.sessionIds[0]!,
    orgId: org.id,
    appId: app.id,
    appNameId: app.appNameId,
    orgKey,
    chatKeys,
    acpKeys,
    productId: product.id,
    checkoutSessions,
    chatSessionId: turn.chatSessionId,
    subscriptions,
    console: await createConsoleResources(api, org.id, n),
  };
}

export async function createTenants(api: Api, count: number): Promise<Tenant[]> {
  const tenants: Tenant[] = [];
  for (let n = 0; n < count; n++) tenants.push(await createTenant(api, n));
  return tenants;
}
