/**
 * An app's ACP checkout settings over HTTP against the local platform: the merchant's policy URLs,
 * shown on every checkout session as ACP `links`, and the tax rate added on top of prices. Totals add up
 * in minor units (subtotal + fulfillment + tax = total, tax rounded half-up from the subtotal, the
 * lines' taxes adding up to it), a complete charges exactly the total the agent saw, and the order
 * carries the same totals. The admin CLI sets the same settings. Every checkout body is checked against
 * the official ACP JSON Schema.
 */
import { spawn } from 'node:child_process';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestPaymentProvider } from '../../functions/acp/adapters/test-payment-provider';
import { MAX_QUANTITY } from '../../functions/acp/domain/checkout';
import { PRODUCT_LIMITS } from '../../functions/acp/domain/product';
import type { ChargeRequest, PaymentOutcome, PaymentProvider, RefundRequest } from '../../functions/acp/app/acp-ports';
import { MAX_TAX_RATE_BPS } from '../../functions/tenancy/domain/app';
import { acpCall } from '../support/acp-client';
import { expectAcp } from '../support/acp-schemas';
import { TestClock } from '../support/clock';
import { startTestPlatform, type Fixture, type TestPlatform, type TestResponse } from '../support/platform';
import { tableOf } from '../support/store';

const OK = { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_ok' } } };
const TERMS = 'https://shop.example/legal/terms-of-use';
const PRIVACY = 'https://shop.example/legal/privacy?lang=en';
const RETURNS = 'https://shop.example/legal/returns#digital';

/** The test handler, remembering every charge that succeeded (what moved money, and how much). */
class RecordingGateway implements PaymentProvider {
  readonly inner = new TestPaymentProvider();
  readonly charged: ChargeRequest[] = [];

  handlers() {
    return this.inner.handlers();
  }

  async charge(input: ChargeRequest): Promise<PaymentOutcome> {
    const outcome = await this.inner.charge(input);
    if (outcome.status === 'succeeded') this.charged.push(input);
    return outcome;
  }

  refund(input: RefundRequest) {
    return this.inner.refund(input);
  }
}

type Total = { type: string; display_text: string; amount: number };
const amountOf = (totals: Total[], type: string) => totals.find((t) => t.type === type)?.amount;

/** The rule, written out independently: tax on the subtotal, in basis points, rounded half-up to a minor unit. */
const expectedTax = (subtotal: bigint, bps: number) => Number((subtotal * BigInt(bps) + 5_000n) / 10_000n);

/** Everything the totals of a session (or an order) must satisfy for the given lines and rate. */
function expectTotalsAddUp(totals: Total[], lines: { unit: number; quantity: number }[], bps: number) {
  const subtotal = lines.reduce((n, l) => n + BigInt(l.unit) * BigInt(l.quantity), 0n);
  const tax = expectedTax(subtotal, bps);
  expect(totals.map((t) => t.type)).toEqual(['items_base_amount', 'subtotal', 'tax', 'fulfillment', 'total']);
  expect(amountOf(totals, 'subtotal')).toBe(Number(subtotal));
  expect(amountOf(totals, 'tax')).toBe(tax);
  expect(amountOf(totals, 'total')).toBe(amountOf(totals, 'subtotal')! + amountOf(totals, 'fulfillment')! + amountOf(totals, 'tax')!);
}

describe('ACP checkout: policy links and tax', () => {
  const clock = new TestClock('2026-07-01T10:00:00.000Z', false);
  const gateway = new RecordingGateway();
  let p: TestPlatform;
  let f: Fixture;
  let key: string;

  const admin = async (method: string, path: string, body?: unknown, status = 200) => {
    const res = await p.admin(method, path, body);
    expect(res.status, res.text).toBe(status);
    return res.body.data;
  };
  const product = (price: number, body: Record<string, unknown> = {}) =>
    admin('POST', `/apps/${f.appId}/products`, { title: `Item ${price}`, price, currency: 'usd', ...body }, 201) as Promise<{ id: string }>;
  const setAcp = (acp: Record<string, unknown>, appId = f.appId) => admin('PATCH', `/apps/${appId}`, { settings: { acp } });
  const base = () => `/acp/${f.appId}/checkout_sessions`;
  const post = (path: string, body: unknown) => acpCall(p, 'POST', path, { token: key, body });
  const get = (id: string) => acpCall(p, 'GET', `${base()}/${id}`, { token: key });
  const session = (res: TestResponse, status: number) => {
    expect(res.status, res.text).toBe(status);
    expectAcp(res.body.order ? 'CheckoutSessionWithOrder' : 'CheckoutSession', res.body);
    return res.body;
  };
  const open = async (lines: { product_id: string; quantity: number }[]) => session(await post(base(), { line_items: lines }), 201);
  const complete = async (id: string) => session(await post(`${base()}/${id}/complete`, { payment_data: OK }), 200);
  /** The admin API's order with its ACP `Order`, checked against the official schema. */
  const order = async (orderId: string) => {
    const data = await admin('GET', `/apps/${f.appId}/orders/${orderId}`);
    expectAcp('Order', data.acpOrder);
    return data;
  };

  beforeAll(async () => {
    p = await startTestPlatform({ clock, payments: gateway });
    f = await p.fixture();
    key = (await admin('POST', `/apps/${f.appId}/acp-keys`, {}, 201)).key;
  });
  afterAll(() => p.stop());
  // 60 checkout requests a minute per key: each test starts a fresh minute.
  beforeEach(async () => {
    clock.advance(60_000);
    await setAcp({ termsOfUseUrl: null, privacyPolicyUrl: null, returnPolicyUrl: null, taxRateBps: 0 });
  });

  describe('settings', () => {
    it('a new app has no policies and no tax; acp settings merge field by field', async () => {
      const other = await p.fixture();
      const app = await admin('GET', `/apps/${other.appId}`);
      expect(app.settings.acp).toEqual({ termsOfUseUrl: null, privacyPolicyUrl: null, returnPolicyUrl: null, taxRateBps: 0 });
      await setAcp({ termsOfUseUrl: TERMS }, other.appId);
      const merged = await setAcp({ taxRateBps: 825 }, other.appId);
      expect(merged.settings.acp).toEqual({ termsOfUseUrl: TERMS, privacyPolicyUrl: null, returnPolicyUrl: null, taxRateBps: 825 });
      const created = await admin('POST', `/orgs/${other.orgId}/apps`, { name: 'Shop', settings: { acp: { returnPolicyUrl: RETURNS } } }, 201);
      expect(created.settings.acp).toEqual({ termsOfUseUrl: null, privacyPolicyUrl: null, returnPolicyUrl: RETURNS, taxRateBps: 0 });
    });

    it.each([
      ['an http URL', { termsOfUseUrl: 'http://shop.example/terms' }, 'settings.acp.termsOfUseUrl'],
      ['not a URL', { privacyPolicyUrl: 'not a url' }, 'settings.acp.privacyPolicyUrl'],
      ['a host that is not a domain', { returnPolicyUrl: 'https://localhost/returns' }, 'settings.acp.returnPolicyUrl'],
      ['a character to percent-encode', { returnPolicyUrl: 'https://shop.example/devoluci\u00f3n' }, 'settings.acp.returnPolicyUrl'],
      ['a URL over 2048 characters', { termsOfUseUrl: `https://shop.example/${'a'.repeat(2048)}` }, 'settings.acp.termsOfUseUrl'],
      ['a rate over 100%', { taxRateBps: MAX_TAX_RATE_BPS + 1 }, 'settings.acp.taxRateBps'],
      ['a negative rate', { taxRateBps: -1 }, 'settings.acp.taxRateBps'],
      ['a fraction of a basis point', { taxRateBps: 8.25 }, 'settings.acp.taxRateBps'],
      ['a rate as a string', { taxRateBps: '825' }, 'settings.acp.taxRateBps'],
      ['an unknown field', { shippingPolicyUrl: 'https://shop.example/shipping' }, 'settings.acp'],
      ['null', null, 'settings.acp'],
    ])('refuses acp settings with %s: a 400 naming the field', async (_what, acp, field) => {
      for (const [method, path, body] of [
        ['PATCH', `/apps/${f.appId}`, { settings: { acp } }],
        ['POST', `/orgs/${f.orgId}/apps`, { name: 'Shop', settings: { acp } }],
      ] as const) {
        const res = await p.admin(method, path, body);
        expect(res.status, res.text).toBe(400);
        expect(res.body.error.message).toContain(`Invalid ${field}`);
      }
      expect((await admin('GET', `/apps/${f.appId}`)).settings.acp.taxRateBps).toBe(0);
    });
  });

  describe('links', () => {
    it('every session answer shows the policies set as ACP links, as they are set now', async () => {
      const mug = await product(1800);
      const before = await open([{ product_id: mug.id, quantity: 1 }]);
      expect(before.links).toEqual([]);

      await setAcp({ termsOfUseUrl: TERMS, privacyPolicyUrl: PRIVACY, returnPolicyUrl: RETURNS });
      const all = [
        { type: 'terms_of_use', title: 'Terms of use', url: TERMS },
        { type: 'privacy_policy', title: 'Privacy policy', url: PRIVACY },
        { type: 'return_policy', title: 'Return policy', url: RETURNS },
      ];
      const created = await open([{ product_id: mug.id, quantity: 1 }]);
      expect(created.links).toEqual(all);
      expect(session(await get(before.id), 200).links).toEqual(all);
      expect(session(await post(`${base()}/${created.id}`, { line_items: [{ product_id: mug.id, quantity: 2 }] }), 200).links).toEqual(all);

      await setAcp({ privacyPolicyUrl: null });
      expect(session(await get(created.id), 200).links.map((l: { type: string }) => l.type)).toEqual(['terms_of_use', 'return_policy']);
      const done = await complete(created.id);
      expect(done.status).toBe('completed');
      expect(done.links.map((l: { type: string }) => l.type)).toEqual(['terms_of_use', 'return_policy']);
      expect(session(await post(`${base()}/${before.id}/cancel`, {}), 200).links).toHaveLength(2);
    });
  });

  describe('tax', () => {
    it('825 bps: the totals add up, the complete charges the total, and the order carries the same tax', async () => {
      await setAcp({ taxRateBps: 825 });
      const mug = await product(1800);
      const ebook = await product(999);
      const created = await open([
        { product_id: mug.id, quantity: 2 },
        { product_id: ebook.id, quantity: 1 },
      ]);
      // 4599 × 8.25% = 379.4175: 379.
      expect(created.totals).toEqual([
        { type: 'items_base_amount', display_text: 'Items', amount: 4599 },
        { type: 'subtotal', display_text: 'Subtotal', amount: 4599 },
        { type: 'tax', display_text: 'Tax', amount: 379 },
        { type: 'fulfillment', display_text: 'Digital delivery', amount: 0 },
        { type: 'total', display_text: 'Total', amount: 4978 },
      ]);
      expect(created.line_items.map((l: { totals: Total[] }) => l.totals.map((t) => [t.type, t.amount]))).toEqual([
        [
          ['items_base_amount', 3600],
          ['subtotal', 3600],
          ['tax', 297],
          ['total', 3897],
        ],
        [
          ['items_base_amount', 999],
          ['subtotal', 999],
          ['tax', 82],
          ['total', 1081],
        ],
      ]);
      const charges = gateway.charged.length;
      const done = await complete(created.id);
      expect(done.status).toBe('completed');
      expect(gateway.charged.slice(charges).map((c) => c.amount)).toEqual([4978]);
      expect(done.totals).toEqual(created.totals);
      expect(done.order.totals).toEqual(created.totals);
      const detail = await order(done.order.id);
      expect(detail).toMatchObject({ taxRateBps: 825, tax: 379, total: 4978 });
      expect(detail.acpOrder.totals).toEqual(created.totals);
    });

    it('rounds half-up: 8.25% of 1000 is 82.5, so 83; the lines share the session’s tax to the unit', async () => {
      await setAcp({ taxRateBps: 825 });
      const one = await product(1000);
      const other = await product(1000);
      const single = await open([{ product_id: one.id, quantity: 1 }]);
      expect(amountOf(single.totals, 'tax')).toBe(83);
      // 2000 × 8.25% = 165 exactly; each line's share is 82.5: the earlier line takes the unit left over.
      const two = await open([
        { product_id: one.id, quantity: 1 },
        { product_id: other.id, quantity: 1 },
      ]);
      expect(amountOf(two.totals, 'tax')).toBe(165);
      expect(two.line_items.map((l: { totals: Total[] }) => amountOf(l.totals, 'tax'))).toEqual([83, 82]);
    });

    it('totals add up for any prices, quantities and rates; the charge is the total and the order shows it (seeded)', async () => {
      const price = fc.oneof(
        { arbitrary: fc.integer({ min: 0, max: 100_000 }), weight: 4 },
        { arbitrary: fc.integer({ min: 0, max: PRODUCT_LIMITS.priceMax }), weight: 1 },
      );
      const quantity = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 20 }), weight: 4 }, { arbitrary: fc.integer({ min: 1, max: MAX_QUANTITY }), weight: 1 });
      const rate = fc.oneof(fc.constant(825), fc.constant(0), fc.constant(MAX_TAX_RATE_BPS), fc.integer({ min: 0, max: MAX_TAX_RATE_BPS }));
      await fc.assert(
        fc.asyncProperty(rate, fc.array(fc.record({ unit: price, quantity }), { minLength: 1, maxLength: 4 }), async (bps, lines) => {
          clock.advance(60_000);
          await setAcp({ taxRateBps: bps });
          const products = await Promise.all(lines.map((l) => product(l.unit)));
          const created = await open(products.map((x, i) => ({ product_id: x.id, quantity: lines[i]!.quantity })));
          expectTotalsAddUp(created.totals, lines, bps);
          // Each line: subtotal + tax = total, its tax within one unit of its exact share, and together the session's tax.
          const lineTaxes = created.line_items.map((l: { totals: Total[] }, i: number) => {
            const amount = BigInt(lines[i]!.unit) * BigInt(lines[i]!.quantity);
            const tax = amountOf(l.totals, 'tax')!;
            expect(amountOf(l.totals, 'total')).toBe(amountOf(l.totals, 'subtotal')! + tax);
            const off = BigInt(tax) * 10_000n - amount * BigInt(bps);
            expect(off > -10_000n && off < 10_000n).toBe(true);
            return tax;
          });
          expect(lineTaxes.reduce((n: number, t: number) => n + t, 0)).toBe(amountOf(created.totals, 'tax'));

          const charges = gateway.charged.length;
          const done = await complete(created.id);
          expect(done.status).toBe('completed');
          expect(gateway.charged.slice(charges).map((c) => c.amount)).toEqual([amountOf(created.totals, 'total')]);
          const detail = await order(done.order.id);
          expect(detail.acpOrder.totals).toEqual(created.totals);
          expect(detail.total).toBe(amountOf(created.totals, 'total'));
        }),
        { seed: 20261126, numRuns: 25 },
      );
    });

    it('a session keeps the rate of its prices: a new rate applies when it is updated', async () => {
      await setAcp({ taxRateBps: 825 });
      const mug = await product(2000);
      const created = await open([{ product_id: mug.id, quantity: 1 }]);
      expect(amountOf(created.totals, 'tax')).toBe(165);
      await setAcp({ taxRateBps: 1000 });
      expect(session(await get(created.id), 200).totals).toEqual(created.totals);
      const updated = session(await post(`${base()}/${created.id}`, { line_items: [{ product_id: mug.id, quantity: 2 }] }), 200);
      expectTotalsAddUp(updated.totals, [{ unit: 2000, quantity: 2 }], 1000);
    });

    it.each([
      ['the app’s tax rate', () => setAcp({ taxRateBps: 500 }), 2000, 500],
      ['a price', (id: string) => admin('PATCH', `/products/${id}`, { price: 2500 }), 2500, 825],
    ])('a complete after %s changed charges nothing and shows the new total first; the next complete charges it', async (_what, change, unit, bps) => {
      await setAcp({ taxRateBps: 825 });
      const mug = await product(2000);
      const created = await open([{ product_id: mug.id, quantity: 1 }]);
      await change(mug.id);
      const charges = gateway.charged.length;
      const refused = await complete(created.id);
      expect(refused.status).toBe('ready_for_payment');
      expect(refused.messages).toEqual([expect.objectContaining({ type: 'warning', code: 'price_change', param: '$.totals' })]);
      expectTotalsAddUp(refused.totals, [{ unit, quantity: 1 }], bps);
      expect(gateway.charged.length).toBe(charges);
      const done = await complete(created.id);
      expect(done.status).toBe('completed');
      expect(gateway.charged.slice(charges).map((c) => c.amount)).toEqual([amountOf(refused.totals, 'total')]);
      expect(done.order.totals).toEqual(refused.totals);
    });

    it('a session and an app stored before tax and policies existed read as no tax and no links', async () => {
      const t = tableOf(p);
      const mug = await product(1800);
      const created = await open([{ product_id: mug.id, quantity: 2 }]);
      await t.db.send(new UpdateCommand({ TableName: t.table, Key: { pk: `CHECKOUT#${created.id}`, sk: 'CHECKOUT' }, UpdateExpression: 'REMOVE taxRateBps' }));
      await t.db.send(new UpdateCommand({ TableName: t.table, Key: { pk: `APP#${f.appId}`, sk: 'APP' }, UpdateExpression: 'REMOVE settings.acp' }));
      expect((await admin('GET', `/apps/${f.appId}`)).settings.acp).toEqual({
        termsOfUseUrl: null,
        privacyPolicyUrl: null,
        returnPolicyUrl: null,
        taxRateBps: 0,
      });
      const read = session(await get(created.id), 200);
      expect(read.links).toEqual([]);
      expectTotalsAddUp(read.totals, [{ unit: 1800, quantity: 2 }], 0);
      const charges = gateway.charged.length;
      const done = await complete(created.id);
      expect(done.status).toBe('completed');
      expect(gateway.charged.slice(charges).map((c) => c.amount)).toEqual([3600]);
    });
  });

  describe('the admin CLI', () => {
    /** `npm run admin -- <args>` against this platform; resolves with the exit code and both outputs. */
    const cli = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const env: NodeJS.ProcessEnv = { ...process.env, ADMIN_API_URL: p.baseUrl, ADMIN_TOKEN: p.adminToken };
        const child = spawn(process.execPath, ['--import', 'tsx', 'functions/cli/admin.ts', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });

    it('app update --help names the ACP flags', async () => {
      const help = await cli(['app', 'update', '--help']);
      expect(help.code, help.stderr).toBe(0);
      for (const flag of ['--terms-of-use-url', '--privacy-policy-url', '--return-policy-url', '--tax-rate-bps']) expect(help.stderr).toContain(`[${flag} <`);
    });

    it('app update sets the policies and the rate, none removes a policy, and a bad rate is refused', async () => {
      const set = await cli(['app', 'update', '--app', f.appId, '--terms-of-use-url', TERMS, '--return-policy-url', RETURNS, '--tax-rate-bps', '825']);
      expect(set.code, set.stdout + set.stderr).toBe(0);
      expect(JSON.parse(set.stdout).data.settings.acp).toEqual({ termsOfUseUrl: TERMS, privacyPolicyUrl: null, returnPolicyUrl: RETURNS, taxRateBps: 825 });
      const cleared = await cli(['app', 'update', '--app', f.appId, '--return-policy-url', 'none']);
      expect(cleared.code, cleared.stdout + cleared.stderr).toBe(0);
      expect(JSON.parse(cleared.stdout).data.settings.acp).toEqual({ termsOfUseUrl: TERMS, privacyPolicyUrl: null, returnPolicyUrl: null, taxRateBps: 825 });
      const fraction = await cli(['app', 'update', '--app', f.appId, '--tax-rate-bps', '8.25']);
      expect(fraction.code).toBe(2);
      expect(fraction.stdout).toContain('--tax-rate-bps must be a whole number');
      const over = await cli(['app', 'update', '--app', f.appId, '--tax-rate-bps', String(MAX_TAX_RATE_BPS + 1)]);
      expect(over.code).toBe(1);
      expect(JSON.parse(over.stdout).error.message).toContain('Invalid settings.acp.taxRateBps');
    });
  });
});
