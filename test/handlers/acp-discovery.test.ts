/**
 * Area C's public discovery over HTTP: the catalog in the ACP feed shape, ACP's discovery document and
 * the A2A 1.0 Agent Card at both paths (checked with the A2A SDK and for ETag/304 in
 * acp-agent-card.test.ts), each validated against its official schema where one exists; 404
 * for an unknown or deleted app; no other app's data; 200 requests a minute per client IP.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpBaseUrl } from '../../functions/acp/domain/discovery';
import { expectAcp } from '../support/acp-schemas';
import { TestClock } from '../support/clock';
import { startTestPlatform, type Fixture, type TestPlatform } from '../support/platform';

describe('ACP discovery (public)', () => {
  const clock = new TestClock('2026-06-01T08:00:00.000Z', false);
  let p: TestPlatform;
  let f: Fixture;
  let other: Fixture;
  const product = async (appId: string, body: Record<string, unknown>) => {
    const res = await p.admin('POST', `/apps/${appId}/products`, body);
    expect(res.status, res.text).toBe(201);
    return res.body.data as { id: string; title: string; price: number; currency: string; inventory: number | null; active: boolean };
  };
  beforeAll(async () => {
    p = await startTestPlatform({ clock });
    f = await p.fixture();
    other = await p.fixture();
  });
  afterAll(() => p.stop());

  it('lists active products only, in the ACP feed ProductsResponse shape', async () => {
    const mug = await product(f.appId, {
      title: 'Mug',
      description: 'Stoneware, 350 ml',
      price: 1800,
      currency: 'USD',
      inventory: 12,
      imageUrl: 'https://cdn.example.com/mug.png',
    });
    const ebook = await product(f.appId, { title: 'E-book', price: 999, currency: 'usd' });
    const retired = await product(f.appId, { title: 'Old poster', price: 500, currency: 'usd', inventory: 0 });
    expect((await p.admin('PATCH', `/products/${retired.id}`, { active: false })).body.data.active).toBe(false);
    await product(other.appId, { title: 'Someone else’s lamp', price: 4000, currency: 'usd' });

    const res = await p.call('GET', `/acp/${f.appId}/products`);
    expect(res.status, res.text).toBe(200);
    expectAcp('ProductsResponse', res.body);
    expect(res.body).toEqual({
      products: [
        {
          id: mug.id,
          title: 'Mug',
          description: { plain: 'Stoneware, 350 ml' },
          media: [{ type: 'image', url: 'https://cdn.example.com/mug.png', alt_text: 'Mug' }],
          variants: [{ id: mug.id, title: 'Mug', price: { amount: 1800, currency: 'USD' }, availability: { available: true, status: 'in_stock' } }],
        },
        {
          id: ebook.id,
          title: 'E-book',
          variants: [{ id: ebook.id, title: 'E-book', price: { amount: 999, currency: 'USD' }, availability: { available: true, status: 'in_stock' } }],
        },
      ],
    });
    expect(res.text).not.toContain('lamp');
  });

  it('has a schema check that can fail', () => {
    expect(() => expectAcp('DiscoveryResponse', { protocol: { name: 'acp' } })).toThrow();
    expect(() =>
      expectAcp('ProductsResponse', { products: [{ id: 'x', variants: [{ id: 'x', title: 'x', price: { amount: 1, currency: 'usd' } }] }] }),
    ).toThrow();
  });

  it('shows a sold-out product as unavailable', async () => {
    const w = await p.fixture();
    await product(w.appId, { title: 'Last one', price: 100, currency: 'usd', inventory: 0 });
    const res = await p.call('GET', `/acp/${w.appId}/products`);
    expectAcp('ProductsResponse', res.body);
    expect(res.body.products[0].variants[0].availability).toEqual({ available: false, status: 'out_of_stock' });
  });

  it('serves ACP’s discovery document naming only this app’s API base URL', async () => {
    const res = await p.call('GET', `/acp/${f.appId}/.well-known/acp.json`);
    expect(res.status, res.text).toBe(200);
    expectAcp('DiscoveryResponse', res.body);
    expect(res.body).toEqual({
      protocol: { name: 'acp', version: '2026-04-17', supported_versions: ['2026-04-17'] },
      api_base_url: acpBaseUrl(p.baseUrl, f.appId),
      transports: ['rest'],
      capabilities: { services: ['checkout'], supported_currencies: ['usd'] },
    });
    expect(res.headers.get('cache-control')).toMatch(/public, max-age=3600/);
  });

  it.each(['agent.json', 'agent-card.json'])('serves the A2A 1.0 Agent Card at /.well-known/%s, with no secret and no other tenant', async (name) => {
    const res = await p.call('GET', `/acp/${f.appId}/.well-known/${name}`);
    expect(res.status, res.text).toBe(200);
    const card = res.body;
    for (const field of ['name', 'description', 'supportedInterfaces', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills'])
      expect(card, field).toHaveProperty(field);
    // A2A 0.3's top-level fields are gone in 1.0.
    for (const field of ['url', 'protocolVersion', 'preferredTransport', 'additionalInterfaces', 'security']) expect(card, field).not.toHaveProperty(field);
    // No A2A binding is served, so none is claimed; the ACP extension names the API instead.
    expect(card.supportedInterfaces).toEqual([]);
    expect(card.capabilities.extensions).toEqual([
      expect.objectContaining({
        uri: 'https://github.com/agentic-commerce-protocol/agentic-commerce-protocol',
        required: true,
        params: {
          acp_version: '2026-04-17',
          api_base_url: acpBaseUrl(p.baseUrl, f.appId),
          transports: ['rest'],
          services: ['checkout'],
          supported_currencies: ['usd'],
        },
      }),
    ]);
    expect(card.name).toBe('Test App');
    expect(card.skills.map((s: { id: string }) => s.id)).toEqual([
      'list_products',
      'create_checkout_session',
      'get_checkout_session',
      'update_checkout_session',
      'complete_checkout_session',
      'cancel_checkout_session',
    ]);
    for (const skill of card.skills) expect(skill.tags.length).toBeGreaterThan(0);
    expect(card.securitySchemes).toEqual({
      acpKey: { httpAuthSecurityScheme: { description: expect.any(String), scheme: 'Bearer', bearerFormat: 'acp_<32 characters>' } },
    });
    expect(card.securityRequirements).toEqual([{ schemes: { acpKey: {} } }]);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(res.text).not.toContain(other.appId);
    expect(res.text).not.toContain(f.orgId);
    expect(res.text).not.toMatch(/svc_|acp_[A-Za-z0-9]{32}|adm_/);
  });

  it('answers 404 for an unknown app, a malformed id and a deleted app, on every discovery route', async () => {
    const gone = await p.fixture();
    expect((await p.admin('DELETE', `/apps/${gone.appId}`)).status).toBe(202);
    for (const appId of [randomUUID(), 'not-an-id', gone.appId]) {
      for (const path of ['products', '.well-known/acp.json', '.well-known/agent.json', '.well-known/agent-card.json']) {
        const res = await p.call('GET', `/acp/${appId}/${path}`);
        expect(res.status, `${appId} ${path}`).toBe(404);
        expect(res.body).toEqual({ type: 'invalid_request', code: 'not_found', message: 'App not found' });
        expectAcp('Error', res.body);
      }
    }
  });

  it('allows 200 requests a minute per client IP across the discovery routes; the 201st is 429 { error } with Retry-After', async () => {
    clock.advance(60_000);
    const paths = ['products', '.well-known/acp.json', '.well-known/agent.json', '.well-known/agent-card.json'];
    for (let i = 0; i < 200; i++) {
      const res = await p.call('GET', `/acp/${f.appId}/${paths[i % 4]}`);
      expect(res.status, `request ${i + 1}`).toBe(200);
    }
    const over = await p.call('GET', `/acp/${other.appId}/products`);
    expect(over.status).toBe(429);
    expect(Object.keys(over.body)).toEqual(['error']);
    expect(typeof over.body.error).toBe('string');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    clock.advance(60_000);
    expect((await p.call('GET', `/acp/${f.appId}/products`)).status).toBe(200);
  });
});

describe('the catalog in the admin API', () => {
  let p: TestPlatform;
  let f: Fixture;
  beforeAll(async () => {
    p = await startTestPlatform();
    f = await p.fixture();
  });
  afterAll(() => p.stop());

  it('creates, lists, updates and deactivates products, with prices in minor units and lower-case currencies', async () => {
    const created = await p.admin('POST', `/apps/${f.appId}/products`, { title: 'Tee', price: 2500, currency: 'EUR', inventory: 3 });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({
      appId: f.appId,
      title: 'Tee',
      price: 2500,
      currency: 'eur',
      inventory: 3,
      active: true,
      imageUrl: null,
      description: '',
    });
    const id = created.body.data.id;
    const updated = await p.admin('PATCH', `/products/${id}`, { price: 2200, inventory: null });
    expect(updated.body.data).toMatchObject({ price: 2200, inventory: null, currency: 'eur' });
    expect((await p.admin('PATCH', `/products/${id}`, { active: false })).body.data.active).toBe(false);
    const listed = await p.admin('GET', `/apps/${f.appId}/products`);
    expect(listed.body.data.map((x: { id: string; active: boolean }) => [x.id, x.active])).toEqual([[id, false]]);
  });

  it.each([
    [{ title: '', price: 1, currency: 'usd' }, /title/],
    [{ title: 'x', price: -1, currency: 'usd' }, /price/],
    [{ title: 'x', price: 1.5, currency: 'usd' }, /price/],
    [{ title: 'x', price: 1, currency: 'dollars' }, /currency/],
    [{ title: 'x', price: 1, currency: 'usd', inventory: -2 }, /inventory/],
    [{ title: 'x', price: 1, currency: 'usd', imageUrl: 'http://insecure.example.com/a.png' }, /imageUrl/],
    [{ title: 'x', price: 1, currency: 'usd', colour: 'red' }, /colour|Unrecognized/],
  ])('refuses %j with 400', async (body, message) => {
    const res = await p.admin('POST', `/apps/${f.appId}/products`, body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.message).toMatch(message);
  });

  it('answers 404 for the products of an unknown app and an unknown product', async () => {
    expect((await p.admin('POST', `/apps/${randomUUID()}/products`, { title: 'x', price: 1, currency: 'usd' })).status).toBe(404);
    expect((await p.admin('PATCH', `/products/${randomUUID()}`, { active: false })).status).toBe(404);
  });
});
