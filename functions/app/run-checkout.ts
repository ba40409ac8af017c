/**
 * Checkout sessions of area C: create, read, update, complete and cancel, with the state machine of
 * `../shared/reference/acp.md` §2. Totals are computed here from the catalog; inventory is reserved
 * only on complete, with one conditional decrement per product, so concurrent completes never oversell.
 */
import { CHECKOUT_TERMINAL_MESSAGE, readiness } from './checkout-readiness';
import { liveApp } from './manage-products';
import {
  CHECKOUT_TTL_MS,
  TERMINAL,
  invalid,
  parseLineItems,
  totalsOf,
  type CheckoutMessage,
  type CheckoutSession,
} from '../domain/acp/checkout';
import { DomainError } from '../domain/errors';
import { msToMicros } from '../domain/time';
import type { AcpPorts, CheckoutPorts } from '../ports/acp';
import type { Deps } from '../ports/deps';
import { isUuid } from '../domain/ids';

type CheckoutDeps = Pick<Deps, 'ids' | 'clock'> & AcpPorts & CheckoutPorts;

/** Optimistic writes retry a bounded number of times; a session this contended answers 409. */
const MAX_ATTEMPTS = 5;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function notAllowed(message: string): DomainError {
  return new DomainError('not_allowed', message, 'invalid_state');
}

/** Another request is completing the session: retry shortly (409, like ACP's in-flight answer). */
function completing(): DomainError {
  return new DomainError('conflict', 'The checkout session is being completed by another request: retry shortly', 'complete_in_progress');
}

function buyerEmailOf(body: Record<string, unknown>): string | null | undefined {
  if (body.buyer === undefined) return undefined;
  if (body.buyer === null) return null;
  if (!isRecord(body.buyer) || typeof body.buyer.email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(body.buyer.email) || body.buyer.email.length > 320) {
    throw invalid('invalid', 'buyer.email must be an email address', '$.buyer.email');
  }
  return body.buyer.email;
}

/** The app's session, with lazy expiry applied; another app's or an unknown id is 404 (nothing leaks). */
export async function getCheckout(deps: CheckoutDeps, input: { appId: string; id: string }): Promise<CheckoutSession> {
  const found = isUuid(input.id) ? await deps.checkouts.get(input.id) : undefined;
  if (!found || found.appId !== input.appId) throw new DomainError('not_found', 'Checkout session not found', 'not_found');
  // A session being completed is never expired underneath its complete.
  if (!TERMINAL.has(found.status) && found.status !== 'complete_in_progress' && deps.clock.nowUs() > found.expiresAtUs) {
    const expired: CheckoutSession = { ...found, status: 'expired', updatedAtUs: deps.clock.nowUs() };
    if (await deps.checkouts.replace(expired, found.version)) return { ...expired, version: found.version + 1 };
    return getCheckout(deps, input);
  }
  return found;
}

export async function createCheckout(deps: CheckoutDeps, input: { appId: string; orgId: string; body: Record<string, unknown> }): Promise<CheckoutSession> {
  const requested = parseLineItems(input.body, true)!;
  const currency = input.body.currency;
  if (currency !== undefined && (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency))) throw invalid('invalid', 'currency must be an ISO 4217 code such as usd', '$.currency');
  const buyerEmail = buyerEmailOf(input.body) ?? null;
  const now = deps.clock.nowUs();
  const ready = await readiness(deps, { appId: input.appId, requested, currency: typeof currency === 'string' ? currency.toLowerCase() : undefined, lineId: () => `li_${deps.ids.secret(16)}` });
  const session: CheckoutSession = {
    id: deps.ids.uuid(),
    orgId: input.orgId,
    appId: input.appId,
    status: ready.status,
    currency: ready.currency,
    lines: ready.lines,
    buyerEmail,
    messages: ready.messages,
    order: null,
    createdAtUs: now,
    updatedAtUs: now,
    expiresAtUs: now + msToMicros(CHECKOUT_TTL_MS),
    version: 1,
  };
  await deps.checkouts.create(session);
  return session;
}

/** Absent fields stay, `line_items` replaces the list, `buyer: null` clears the buyer; terminal sessions are 405. */
export async function updateCheckout(deps: CheckoutDeps, input: { appId: string; id: string; body: Record<string, unknown> }): Promise<CheckoutSession> {
  const requested = parseLineItems(input.body, false);
  const buyerEmail = buyerEmailOf(input.body);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await getCheckout(deps, input);
    if (TERMINAL.has(current.status)) throw notAllowed(`${CHECKOUT_TERMINAL_MESSAGE} ${current.status}`);
    if (current.status === 'complete_in_progress') throw completing();
    const ready = await readiness(deps, {
      appId: input.appId,
      requested: requested ?? current.lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
      currency: current.currency,
      lineId: (productId) => current.lines.find((l) => l.productId === productId)?.lineId ?? `li_${deps.ids.secret(16)}`,
    });
    const next: CheckoutSession = {
      ...current,
      status: ready.status,
      lines: ready.lines,
      messages: ready.messages,
      ...(buyerEmail !== undefined ? { buyerEmail } : {}),
      updatedAtUs: deps.clock.nowUs(),
    };
    if (await deps.checkouts.replace(next, current.version)) return { ...next, version: current.version + 1 };
  }
  throw new DomainError('conflict', 'The checkout session is being changed by another request: retry', 'conflict');
}

export async function cancelCheckout(deps: CheckoutDeps, input: { appId: string; id: string }): Promise<CheckoutSession> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await getCheckout(deps, input);
    if (TERMINAL.has(current.status)) throw notAllowed(`${CHECKOUT_TERMINAL_MESSAGE} ${current.status}`);
    if (current.status === 'complete_in_progress') throw completing();
    const next: CheckoutSession = { ...current, status: 'canceled', messages: [], updatedAtUs: deps.clock.nowUs() };
    if (await deps.checkouts.replace(next, current.version)) return { ...next, version: current.version + 1 };
  }
  throw new DomainError('conflict', 'The checkout session is being changed by another request: retry', 'conflict');
}

/**
 * Complete: re-checks readiness against the catalog, reserves every line's units, charges through the
 * payment handler, then records the order. A decline gives the units back and leaves the session
 * `ready_for_payment` with a `payment_declined` message (200, as ACP's examples do); stock that ran out
 * meanwhile gives `not_ready_for_payment` with `out_of_stock`. A lost race on the session gives the
 * units back and answers 409.
 */
export async function completeCheckout(deps: CheckoutDeps, input: { appId: string; id: string; body: Record<string, unknown> }): Promise<CheckoutSession> {
  const paymentData = input.body.payment_data;
  if (!isRecord(paymentData)) throw invalid('missing', 'payment_data is required: { handler_id, instrument: { type, credential: { type, token } } }', '$.payment_data');
  const handlerId = paymentData.handler_id;
  if (handlerId !== undefined && !deps.payments.handlers().some((h) => h.id === handlerId)) {
    throw invalid('invalid', `Unknown payment handler: ${String(handlerId).slice(0, 100)}`, '$.payment_data.handler_id');
  }
  const current = await getCheckout(deps, input);
  if (TERMINAL.has(current.status)) throw notAllowed(`${CHECKOUT_TERMINAL_MESSAGE} ${current.status}`);
  if (current.status === 'complete_in_progress') throw completing();
  if (current.status !== 'ready_for_payment') {
    throw new DomainError('bad_request', 'The checkout session is not ready for payment: see its messages', 'not_ready_for_payment');
  }
  // Claim the session: from here on every other write of it is refused until this complete settles.
  const claimed: CheckoutSession = { ...current, status: 'complete_in_progress', updatedAtUs: deps.clock.nowUs() };
  if (!(await deps.checkouts.replace(claimed, current.version))) throw completing();
  const claimedVersion = current.version + 1;
  const settle = async (next: CheckoutSession): Promise<CheckoutSession> => {
    if (!(await deps.checkouts.replace(next, claimedVersion))) throw new Error(`checkout ${current.id}: the claimed session changed underneath its complete`);
    return { ...next, version: claimedVersion + 1 };
  };
  const reserved: { productId: string; quantity: number }[] = [];
  const giveBack = async () => {
    for (const r of reserved.splice(0)) await deps.inventory.release(r.productId, r.quantity);
  };
  try {
    const ready = await readiness(deps, {
      appId: input.appId,
      requested: current.lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
      currency: current.currency,
      lineId: (productId) => current.lines.find((l) => l.productId === productId)!.lineId,
    });
    let messages: CheckoutMessage[] = ready.messages;
    if (ready.status === 'ready_for_payment') {
      for (const [i, line] of ready.lines.entries()) {
        if (await deps.inventory.reserve(line.productId, line.quantity)) {
          reserved.push({ productId: line.productId, quantity: line.quantity });
          continue;
        }
        messages = [{ type: 'error', code: 'out_of_stock', param: `$.line_items[${i}]`, content: `${line.title} is out of stock` }];
        break;
      }
    }
    if (ready.status !== 'ready_for_payment' || messages.length) {
      await giveBack();
      return await settle({ ...current, status: 'not_ready_for_payment', lines: ready.lines, messages, updatedAtUs: deps.clock.nowUs() });
    }
    const amount = totalsOf(ready).find((t) => t.type === 'total')!.amount;
    const outcome = await deps.payments.charge({ sessionId: current.id, amount, currency: current.currency, paymentData });
    if (outcome.status === 'declined') {
      await giveBack();
      return await settle({
        ...current,
        lines: ready.lines,
        messages: [{ type: 'error', code: 'payment_declined', param: '$.payment_data', content: outcome.message }],
        updatedAtUs: deps.clock.nowUs(),
      });
    }
    const now = deps.clock.nowUs();
    reserved.length = 0; // sold: the units stay taken
    return await settle({ ...current, status: 'completed', lines: ready.lines, messages: [], order: { id: deps.ids.uuid(), createdAtUs: now, paymentReference: outcome.reference }, updatedAtUs: now });
  } catch (err) {
    // Nothing was sold: give the units back and release the claim, so the complete can be retried.
    await giveBack();
    await deps.checkouts.replace({ ...current, updatedAtUs: deps.clock.nowUs() }, claimedVersion).catch(() => false);
    throw err;
  }
}

/** The app's orders (completed sessions), newest first, for the admin API. */
export async function listOrders(deps: Pick<Deps, 'apps'> & CheckoutPorts, input: { appId: string; limit: number }): Promise<CheckoutSession[]> {
  const app = await liveApp(deps, input.appId);
  return deps.checkouts.listCompletedByApp(app.id, input.limit);
}
