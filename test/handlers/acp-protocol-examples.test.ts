/**
 * Every request of ACP 2026-04-17's official examples (test/fixtures/acp/, the release's file
 * unmodified), replayed over HTTP against the local platform, each answer checked against the official
 * JSON Schema (and, by `p.call`, the OpenAPI document). The examples name the example merchant's
 * things; the replay names this platform's instead, found the way an agent finds them:
 * - an item id (`item_123`) is a product of the app's catalog, wherever the example names it;
 * - a payment handler id is the session's handler with the same `name` (`dev.acp.tokenized.card` is the
 *   test handler here), and its credential the test handler's paying token; a handler the session does
 *   not offer (`dev.acp.seller_backed.saved_card`) stays as the example has it;
 * - a selected fulfillment option is the option the session offers (its `type` and `id`).
 * Update, complete and cancel go to a session the create example opened.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKENS } from '../../functions/acp/adapters/test-payment-provider';
import { acpCall } from '../support/acp-client';
import { expectAcp, expectAcpSession } from '../support/acp-schemas';
import { TestClock } from '../support/clock';
import { startTestPlatform, type Fixture, type TestPlatform, type TestResponse } from '../support/platform';

type Json = any;
const EXAMPLES: Record<string, Json> = JSON.parse(
  readFileSync(fileURLToPath(new URL('../fixtures/acp/examples.agentic_checkout.2026-04-17.json', import.meta.url)), 'utf8'),
);
/** The file's requests: every example whose name says it is one. */
const REQUESTS = Object.keys(EXAMPLES).filter((name) => /_request(_|$)/.test(name));
const operationOf = (name: string) => name.split('_')[0] as 'create' | 'update' | 'complete' | 'cancel';

/** The example merchant's item ids (those its create requests buy) and payment handlers (id to name, from its sessions). */
const EXAMPLE_ITEMS = new Set(REQUESTS.filter((n) => operationOf(n) === 'create').flatMap((n) => EXAMPLES[n].line_items.map((l: Json) => l.id as string)));
const EXAMPLE_HANDLERS = new Map<string, string>(
  Object.values(EXAMPLES).flatMap((e: Json) => (e?.capabilities?.payment?.handlers ?? []).map((h: Json) => [h.id, h.name] as [string, string])),
);

interface Local {
  readonly productId: string;
  /** The session's payment handlers, by name. */
  readonly handlers: ReadonlyMap<string, string>;
  readonly option: { readonly type: string; readonly id: string };
}

/** The example with this platform's names for the example merchant's things (see the file's comment). */
function localize(example: Json, local: Local): Json {
  const walk = (v: Json): Json => {
    if (typeof v === 'string') return EXAMPLE_ITEMS.has(v) ? local.productId : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const body = walk(example);
  const payment = body.payment_data;
  const handler = payment ? local.handlers.get(EXAMPLE_HANDLERS.get(payment.handler_id) ?? '') : undefined;
  if (handler) {
    payment.handler_id = handler;
    payment.instrument.credential.token = TEST_TOKENS.ok;
  }
  for (const selected of body.selected_fulfillment_options ?? []) Object.assign(selected, { type: local.option.type, option_id: local.option.id });
  return body;
}

const totalOf = (s: Json) => s.totals.find((t: Json) => t.type === 'total').amount;

describe('ACP 2026-04-17 official examples, replayed', () => {
  const clock = new TestClock('2026-07-01T10:00:00.000Z', false);
  let p: TestPlatform;
  let f: Fixture;
  let key: string;
  let productId: string;
  let local: Local;

  const base = () => `/acp/${f.appId}/checkout_sessions`;
  const post = (path: string, body: unknown) => acpCall(p, 'POST', path, { token: key, body });
  /** A session opened by the official create example, as the operations after create find one. */
  const opened = async () => expectAcpSession(await post(base(), localize(EXAMPLES.create_checkout_session_request, local)), 201);

  /** What each request must be answered, given the session it went to (undefined for create). */
  const EXPECTED: Record<string, (res: TestResponse, sent: Json, before?: Json) => void | Promise<void>> = {
    create_checkout_session_request: (res, sent) => {
      const s = expectAcpSession(res, 201);
      expect(s.status).toBe('ready_for_payment');
      expect(s.line_items.map((l: Json) => [l.item.id, l.quantity])).toEqual([[productId, 1]]);
      // Kept and shown as given: the contact and address the buyer gave, though digital delivery needs no address.
      expect(s.fulfillment_details).toEqual(sent.fulfillment_details);
      // The agent's interventions meet none this platform runs: the intersection is empty, and none is required.
      expect(s.capabilities.interventions).toEqual({ supported: [], required: [] });
    },
    create_checkout_session_request_with_first_touch_attribution: (res) => {
      expect(expectAcpSession(res, 201).status).toBe('ready_for_payment');
    },
    update_checkout_session_request: (res, _sent, before) => {
      const s = expectAcpSession(res, 200);
      expect(s.status).toBe('ready_for_payment');
      // The example names the line by its item id; the session answers with its line item id.
      expect(s.selected_fulfillment_options).toEqual([{ type: local.option.type, option_id: local.option.id, item_ids: [before.line_items[0].id] }]);
      expect(s.fulfillment_details).toEqual(before.fulfillment_details);
    },
    complete_checkout_session_request: async (res, sent, before) => {
      const s = expectAcpSession(res, 200);
      expect(s.status).toBe('completed');
      expect(s.order.checkout_session_id).toBe(before.id);
      expect(s.buyer).toEqual(sent.buyer);
      expect(totalOf(s)).toBe(totalOf(before));
      // The session shape has no field for order notes: the merchant reads them with the order.
      const orders = (await p.admin('GET', `/apps/${f.appId}/orders`)).body.data;
      expect(orders.find((o: Json) => o.id === s.order.id).orderNotes).toBe(sent.order_notes);
    },
    complete_checkout_session_request_with_last_touch_attribution: (res, sent) => {
      const s = expectAcpSession(res, 200);
      expect(s.status).toBe('completed');
      expect(s.buyer).toEqual(sent.buyer);
    },
    // The session offers no seller-backed saved-card handler: nothing to pay with, and the session stays payable.
    complete_checkout_session_request_seller_backed: (res) => {
      expect(res.status, res.text).toBe(400);
      expectAcp('Error', res.body);
      expect(res.body).toMatchObject({ type: 'invalid_request', code: 'invalid', param: '$.payment_data.handler_id' });
    },
    complete_session_with_authentication_result_request: (res, sent) => {
      const s = expectAcpSession(res, 200);
      expect(s.status).toBe('completed');
      expect(s.buyer).toEqual(sent.buyer);
    },
    // The issuer did not authenticate the buyer: nothing is charged, and the session says why.
    complete_session_with_denied_authentication_request: (res) => {
      const s = expectAcpSession(res, 200);
      expect(s.status).toBe('ready_for_payment');
      expect(s.order).toBeUndefined();
      expect(s.messages).toEqual([expect.objectContaining({ type: 'error', code: 'payment_declined', param: '$.authentication_result' })]);
    },
    cancel_checkout_session_request: (res) => {
      expect(expectAcpSession(res, 200).status).toBe('canceled');
    },
    cancel_checkout_session_request_timing_deferred: (res) => {
      expect(expectAcpSession(res, 200).status).toBe('canceled');
    },
  };

  beforeAll(async () => {
    p = await startTestPlatform({ clock });
    f = await p.fixture();
    key = (await p.admin('POST', `/apps/${f.appId}/acp-keys`, {})).body.data.key;
    productId = (await p.admin('POST', `/apps/${f.appId}/products`, { title: 'Vintage Denim Jacket (digital pattern)', price: 300, currency: 'usd' })).body.data
      .id;
    const probe = expectAcpSession(await post(base(), { line_items: [{ id: productId }] }), 201);
    local = {
      productId,
      handlers: new Map(probe.capabilities.payment.handlers.map((h: Json) => [h.name, h.id])),
      option: { type: probe.fulfillment_options[0].type, id: probe.fulfillment_options[0].id },
    };
  });
  afterAll(() => p.stop());

  it('has an expected answer for every request of the file, and the file has ten', () => {
    expect(REQUESTS).toHaveLength(10);
    expect(Object.keys(EXPECTED).sort()).toEqual([...REQUESTS].sort());
  });

  it.each(REQUESTS)('%s', async (name) => {
    const op = operationOf(name);
    const before = op === 'create' ? undefined : await opened();
    const sent = localize(EXAMPLES[name], local);
    const path = { create: base(), update: `${base()}/${before?.id}`, complete: `${base()}/${before?.id}/complete`, cancel: `${base()}/${before?.id}/cancel` }[
      op
    ];
    const res = await post(path, sent);
    await EXPECTED[name]!(res, sent, before);
    if (before && res.status >= 400) {
      // A refused request changed nothing.
      expect((await acpCall(p, 'GET', `${base()}/${before.id}`, { token: key })).body).toEqual(before);
    }
  });
});
