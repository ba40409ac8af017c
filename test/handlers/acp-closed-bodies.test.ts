/**
 * Area C's checkout request bodies are closed, tested by class over HTTP against the local platform:
 * from one maximal valid body per operation (every member ACP 2026-04-17 defines for it), each closed
 * object refuses each hostile key (prototype member names included: keys are own properties, never
 * looked up), and each member refuses each JSON type but its own, with a 400 whose `param` is the
 * JSONPath of the key or member. None of them changes the session they were sent to. Every answer is
 * checked against the ACP schema and the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acpCall } from '../support/acp-client';
import { expectAcpRefusal, expectAcpSession } from '../support/acp-schemas';
import { TestClock } from '../support/clock';
import { startTestPlatform, type Fixture, type TestPlatform } from '../support/platform';

type Path = readonly (string | number)[];
type Variant = 'create' | 'createWithItems' | 'update' | 'complete' | 'completeLegacy' | 'cancel';

/** The platform echoes at most 64 characters of a name; a name that is not an identifier is in brackets. */
function paramOf(path: Path): string {
  return `$${path
    .map((s) => {
      if (typeof s === 'number') return `[${s}]`;
      const name = Array.from(s).slice(0, 64).join('');
      return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `.${name}` : `['${name}']`;
    })
    .join('')}`;
}

/**
 * A deep copy of `body` as JSON text where the object at `path` gains the own member `key` (a
 * `__proto__` key too), or, with no key, where the member at `path` is `value`.
 */
function withMember(body: unknown, path: Path, key: string | undefined, value: unknown): string {
  const copy = structuredClone(body) as Record<string | number, any>;
  const segments = key === undefined ? path.slice(0, -1) : path;
  const target = segments.reduce((o: any, s) => o[s], copy);
  Object.defineProperty(target, key ?? path[path.length - 1]!, { value, enumerable: true, writable: true, configurable: true });
  return JSON.stringify(copy);
}

const HOSTILE_KEYS = ['evil', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'k'.repeat(200), 'clé-🔑'];
const WRONG_VALUES: Record<string, unknown> = { integer: 7, number: 1.5, string: 'x', boolean: true, null: null, array: [], object: {} };

const address = {
  name: 'Ada Lovelace',
  line_one: '1 Main St',
  line_two: '',
  city: 'Springfield',
  state: 'IL',
  country: 'US',
  postal_code: '62701',
  company: 'AE',
};
const fulfillmentDetails = { name: 'Ada Lovelace', phone_number: '+15551234567', email: 'ada@example.com', address };
const buyer = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  full_name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone_number: '+15551234567',
  customer_id: 'c_1',
  account_type: 'business',
  authentication_status: 'guest',
  company: { name: 'Analytical Engines', tax_id: '12-3456789', department: 'R&D', cost_center: 'CC-1' },
  loyalty: { tier: 'Gold', points_balance: 5000, member_since: '2024-01-15T09:00:00Z' },
  tax_exemption: { certificate_id: 'cert_1', certificate_type: 'resale', exempt_regions: ['CA'], expires_at: '2027-12-31T23:59:59Z' },
};
const attribution = {
  provider: 'impact.com',
  token: 'atp_1',
  publisher_id: 'pub_1',
  campaign_id: 'camp_1',
  creative_id: 'cr_1',
  sub_id: 'sub_1',
  source: { type: 'url', url: 'https://example.com/review' },
  issued_at: '2026-07-01T09:00:00Z',
  expires_at: '2026-07-01T11:00:00Z',
  metadata: { campaign_type: 'influencer', rate: 0.15, verified: true },
  touchpoint: 'first',
};
const fulfillmentGroup = {
  id: 'fg_1',
  item_ids: ['li_1'],
  destination_type: 'digital',
  fulfillment_details: { name: 'Ada Lovelace' },
  location_id: 'loc_1',
  instructions: 'none',
};

/** One valid body per variant with every member ACP defines for the operation. */
function bodies(ids: { mug: string; ebook: string; lineId: string }): Record<Variant, any> {
  const instrument = { type: 'card', credential: { type: 'spt', token: 'spt_test_ok' } };
  return {
    create: {
      line_items: [
        { product_id: ids.mug, quantity: 1, name: 'Mug', unit_amount: 1800 },
        { item: { id: ids.ebook, name: 'E-book', unit_amount: 999 }, quantity: 2 },
      ],
      currency: 'usd',
      buyer,
      capabilities: {
        payment: { handlers: [] },
        interventions: {
          supported: ['3ds'],
          required: ['3ds'],
          enforcement: 'optional',
          display_context: 'webview',
          redirect_context: 'in_app',
          max_redirects: 1,
          max_interaction_depth: 1,
        },
        extensions: ['discount'],
      },
      fulfillment_details: fulfillmentDetails,
      fulfillment_groups: [fulfillmentGroup],
      affiliate_attribution: attribution,
      discounts: { codes: ['FALL10'] },
      coupons: ['OLD5'],
      locale: 'en-US',
      timezone: 'America/Chicago',
      quote_id: 'q_1',
      metadata: { campaign: 'fall' },
      order_notes: 'A gift',
    },
    createWithItems: { items: [{ id: ids.ebook, quantity: 1 }] },
    update: {
      line_items: [{ product_id: ids.mug, quantity: 1 }],
      buyer,
      fulfillment_details: fulfillmentDetails,
      fulfillment_groups: [fulfillmentGroup],
      selected_fulfillment_options: [{ type: 'digital', option_id: 'digital', item_ids: [ids.lineId] }],
      discounts: { codes: [] },
      coupons: [],
      order_notes: 'A gift',
    },
    complete: {
      payment_data: {
        handler_id: 'platform_test_card',
        instrument,
        billing_address: address,
        payment_terms: 'immediate',
        due_date: '2026-07-01T10:00:00Z',
        approval_required: false,
      },
      buyer,
      authentication_result: {
        outcome: 'authenticated',
        outcome_details: { three_ds_cryptogram: 'AbCdEfGhIjKlMnOpQrStUvWxY0=', electronic_commerce_indicator: '05', transaction_id: 'ds_1', version: '2.2.0' },
      },
      affiliate_attribution: { ...attribution, touchpoint: 'last' },
      risk_signals: { ip_address: '203.0.113.7', user_agent: 'agent/1.0', accept_language: 'en-US', session_id: 's_1', device_fingerprint: 'fp_1' },
      marketing_consents: [{ channel: 'email', opted_in: true }],
      order_notes: 'Thanks',
    },
    completeLegacy: { payment_data: { token: 'spt_test_ok', provider: 'stripe', billing_address: address } },
    cancel: {
      intent_trace: {
        reason_code: 'shipping_cost',
        trace_summary: 'Shipping costs too much.',
        metadata: { target_shipping_cost: 0, competitor: 'x', verified: true },
      },
    },
  };
}

/** Every closed object of the maximal bodies: [variant, path of the object]. */
const CLOSED_OBJECTS: [Variant, Path][] = [
  ...(
    [
      [],
      ['line_items', 0],
      ['line_items', 1],
      ['line_items', 1, 'item'],
      ['buyer'],
      ['buyer', 'company'],
      ['buyer', 'loyalty'],
      ['buyer', 'tax_exemption'],
      ['capabilities'],
      ['capabilities', 'payment'],
      ['capabilities', 'interventions'],
      ['fulfillment_details'],
      ['fulfillment_details', 'address'],
      ['fulfillment_groups', 0],
      ['fulfillment_groups', 0, 'fulfillment_details'],
      ['affiliate_attribution', 'source'],
      ['discounts'],
    ] as Path[]
  ).map((p): [Variant, Path] => ['create', p]),
  ['createWithItems', ['items', 0]],
  ...([[], ['line_items', 0], ['buyer'], ['selected_fulfillment_options', 0], ['fulfillment_groups', 0]] as Path[]).map((p): [Variant, Path] => ['update', p]),
  ...(
    [
      [],
      ['payment_data'],
      ['payment_data', 'instrument'],
      ['payment_data', 'instrument', 'credential'],
      ['payment_data', 'billing_address'],
      ['buyer'],
      ['authentication_result'],
      ['authentication_result', 'outcome_details'],
      ['risk_signals'],
      ['marketing_consents', 0],
    ] as Path[]
  ).map((p): [Variant, Path] => ['complete', p]),
  ['completeLegacy', ['payment_data']],
  ['completeLegacy', ['payment_data', 'billing_address']],
  ['cancel', []],
  ['cancel', ['intent_trace']],
];

const S = ['string'],
  I = ['integer'],
  B = ['boolean'],
  O = ['object'],
  A = ['array'],
  SCALAR = ['string', 'integer', 'number', 'boolean'];
/** Members and the JSON types they take: [variant, path, accepted types, code of the refusal]. */
const TYPED_MEMBERS: [Variant, Path, string[], string?][] = [
  ['create', ['line_items'], A],
  ['create', ['line_items', 0], O],
  ['create', ['line_items', 0, 'product_id'], S, 'invalid_item_id'],
  ['create', ['line_items', 0, 'quantity'], I],
  ['create', ['line_items', 0, 'name'], S],
  ['create', ['line_items', 0, 'unit_amount'], I],
  ['create', ['line_items', 1, 'item'], O],
  ['create', ['line_items', 1, 'item', 'id'], S, 'invalid_item_id'],
  ['create', ['line_items', 1, 'item', 'name'], S],
  ['create', ['line_items', 1, 'item', 'unit_amount'], I],
  ['create', ['currency'], S],
  ['create', ['buyer', 'email'], S],
  ['create', ['buyer', 'first_name'], S],
  ['create', ['buyer', 'company'], O],
  ['create', ['buyer', 'company', 'name'], S],
  ['create', ['buyer', 'loyalty', 'points_balance'], I],
  ['create', ['buyer', 'tax_exemption', 'exempt_regions'], A],
  ['create', ['buyer', 'tax_exemption', 'exempt_regions', 0], S],
  ['create', ['capabilities'], O],
  ['create', ['capabilities', 'interventions'], O],
  ['create', ['capabilities', 'interventions', 'supported'], A],
  ['create', ['capabilities', 'interventions', 'max_redirects'], I],
  ['create', ['capabilities', 'extensions'], A],
  ['create', ['capabilities', 'payment', 'handlers'], A],
  ['create', ['fulfillment_details'], O],
  ['create', ['fulfillment_details', 'email'], S],
  ['create', ['fulfillment_details', 'address'], O],
  ['create', ['fulfillment_details', 'address', 'line_two'], S],
  ['create', ['fulfillment_groups'], A],
  ['create', ['fulfillment_groups', 0], O],
  ['create', ['fulfillment_groups', 0, 'item_ids'], A],
  ['create', ['affiliate_attribution'], O],
  ['create', ['affiliate_attribution', 'provider'], S],
  ['create', ['affiliate_attribution', 'metadata'], O],
  ['create', ['affiliate_attribution', 'metadata', 'rate'], SCALAR],
  ['create', ['affiliate_attribution', 'source'], O],
  ['create', ['discounts'], O],
  ['create', ['discounts', 'codes'], A],
  ['create', ['discounts', 'codes', 0], S],
  ['create', ['coupons'], A],
  ['create', ['locale'], S],
  ['create', ['timezone'], S],
  ['create', ['quote_id'], S],
  ['create', ['metadata'], O],
  ['create', ['order_notes'], S],
  ['createWithItems', ['items'], A],
  ['createWithItems', ['items', 0, 'id'], S, 'invalid_item_id'],
  ['update', ['selected_fulfillment_options'], A],
  ['update', ['selected_fulfillment_options', 0, 'item_ids'], A],
  ['update', ['buyer', 'email'], S],
  ['update', ['line_items', 0, 'quantity'], I],
  ['complete', ['payment_data'], O],
  ['complete', ['payment_data', 'handler_id'], S],
  ['complete', ['payment_data', 'instrument'], O],
  ['complete', ['payment_data', 'instrument', 'type'], S],
  ['complete', ['payment_data', 'instrument', 'credential'], O],
  ['complete', ['payment_data', 'instrument', 'credential', 'type'], S],
  ['complete', ['payment_data', 'instrument', 'credential', 'token'], S],
  ['complete', ['payment_data', 'billing_address'], O],
  ['complete', ['payment_data', 'billing_address', 'postal_code'], S],
  ['complete', ['payment_data', 'payment_terms'], S],
  ['complete', ['payment_data', 'due_date'], S],
  ['complete', ['payment_data', 'approval_required'], B],
  ['complete', ['authentication_result'], O],
  ['complete', ['authentication_result', 'outcome'], S],
  ['complete', ['authentication_result', 'outcome_details'], O],
  ['complete', ['risk_signals'], O],
  ['complete', ['risk_signals', 'ip_address'], S],
  ['complete', ['marketing_consents'], A],
  ['complete', ['marketing_consents', 0], O],
  ['complete', ['marketing_consents', 0, 'opted_in'], B],
  ['complete', ['order_notes'], S],
  ['complete', ['buyer', 'email'], S],
  ['completeLegacy', ['payment_data', 'token'], S],
  ['completeLegacy', ['payment_data', 'provider'], S],
  ['cancel', ['intent_trace'], O],
  ['cancel', ['intent_trace', 'reason_code'], S],
  ['cancel', ['intent_trace', 'trace_summary'], S],
  ['cancel', ['intent_trace', 'metadata'], O],
  ['cancel', ['intent_trace', 'metadata', 'target_shipping_cost'], SCALAR],
];

describe('ACP checkout request bodies are closed', () => {
  const clock = new TestClock('2026-07-01T10:00:00.000Z', false);
  let p: TestPlatform;
  let f: Fixture;
  let key: string;
  let ids: { mug: string; ebook: string; lineId: string };
  /** A ready session that every refused update, complete and cancel is sent to. */
  let target: { id: string; read: unknown };
  let sent = 0;

  const base = () => `/acp/${f.appId}/checkout_sessions`;
  const pathOf = (variant: Variant, id = target.id) => {
    const op = variant.replace(/WithItems|Legacy/, '');
    return op === 'create' ? base() : op === 'update' ? `${base()}/${id}` : `${base()}/${id}/${op}`;
  };
  /** The key's 60 requests a minute are not what is tested here: a new window every 50. */
  const post = (path: string, body: unknown) => {
    if (++sent % 50 === 0) clock.advance(60_000);
    return acpCall(p, 'POST', path, { token: key, body });
  };
  const ok = expectAcpSession;
  const refused = expectAcpRefusal;
  const open = async (productId: string) => ok(await post(base(), { line_items: [{ product_id: productId, quantity: 1 }] }), 201);

  beforeAll(async () => {
    p = await startTestPlatform({ clock });
    f = await p.fixture();
    key = (await p.admin('POST', `/apps/${f.appId}/acp-keys`, {})).body.data.key;
    const mug = (await p.admin('POST', `/apps/${f.appId}/products`, { title: 'Mug', price: 1800, currency: 'usd', inventory: 50 })).body.data.id;
    const ebook = (await p.admin('POST', `/apps/${f.appId}/products`, { title: 'E-book', price: 999, currency: 'usd' })).body.data.id;
    const s = await open(mug);
    ids = { mug, ebook, lineId: s.line_items[0].id };
    target = { id: s.id, read: (await acpCall(p, 'GET', `${base()}/${s.id}`, { token: key })).body };
  });
  afterAll(() => p.stop());

  it('accepts the maximal body of each operation', async () => {
    const s = await open(ids.mug);
    const all = bodies({ ...ids, lineId: s.line_items[0].id });
    expect(ok(await post(base(), all.create), 201).status).toBe('ready_for_payment');
    expect(ok(await post(base(), all.createWithItems), 201).line_items[0].product_id).toBe(ids.ebook);
    expect(ok(await post(pathOf('update', s.id), all.update), 200).status).toBe('ready_for_payment');
    expect(ok(await post(pathOf('complete', s.id), all.complete), 200).status).toBe('completed');
    expect(ok(await post(pathOf('complete', (await open(ids.ebook)).id), all.completeLegacy), 200).status).toBe('completed');
    expect(ok(await post(pathOf('cancel', (await open(ids.ebook)).id), all.cancel), 200).status).toBe('canceled');
  });

  describe.each(CLOSED_OBJECTS.map(([variant, path]) => [`${variant} ${paramOf(path)}`, variant, path] as const))('%s', (_name, variant, path) => {
    it.each(HOSTILE_KEYS)('refuses the key %j, naming it', async (hostile) => {
      refused(await post(pathOf(variant), withMember(bodies(ids)[variant], path, hostile, 1)), paramOf([...path, hostile]));
    });
  });

  describe.each(TYPED_MEMBERS.map(([variant, path, types, code]) => [`${variant} ${paramOf(path)}`, variant, path, types, code] as const))(
    '%s',
    (_name, variant, path, types, code) => {
      it.each(Object.entries(WRONG_VALUES).filter(([type]) => !types.includes(type)))('refuses a %s', async (_type, wrong) => {
        refused(await post(pathOf(variant), withMember(bodies(ids)[variant], path, undefined, wrong)), paramOf(path), code);
      });
    },
  );

  it('the session every refused request was sent to is unchanged', async () => {
    expect((await acpCall(p, 'GET', `${base()}/${target.id}`, { token: key })).body).toEqual(target.read);
  });
});
