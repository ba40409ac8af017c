/**
 * Completing a checkout session of area C (ACP's complete): inventory is reserved only here, with
 * one conditional decrement per product, so concurrent completes never oversell.
 */
import { CHECKOUT_TERMINAL_MESSAGE, isLimited, readCatalog, readiness, type Catalog } from './checkout-readiness';
import { buyerEmailOf, completing, getCheckout, notAllowed, type CheckoutDeps } from './run-checkout';
import { TERMINAL, completionHolder, type CheckoutLine, type CheckoutMessage, type CheckoutSession } from '../domain/checkout';
import { totalAmountOf } from '../domain/checkout-totals';
import { checkRequestFields } from '../domain/checkout-request';
import { authenticationDecline, checkPaymentData } from '../domain/payment-data';
import { DomainError } from '../../kernel/domain/errors';
import type { CheckoutSnapshot, PaymentOutcome } from './acp-ports';
import { newOrder, orderPermalink } from '../domain/order';
import { appendOrderEvent, requestOrderDelivery } from './order-events';

/**
 * Complete: claims the session (`complete_in_progress`, with the write-ahead `completion` record), then
 * finishes it (see finishCompletion). A complete whose payment outcome is unknown answers the session
 * still `complete_in_progress`, as ACP's asynchronous complete does; recovery finishes it.
 */
export async function completeCheckout(
  deps: CheckoutDeps,
  /** `baseUrl`: the request's `{base_url}`, for the order's permalink. */
  input: { appId: string; id: string; body: Record<string, unknown>; baseUrl?: string; readAhead?: CheckoutSnapshot },
): Promise<CheckoutSession> {
  const details = checkRequestFields(input.body, 'complete');
  const buyerEmail = buyerEmailOf(input.body);
  // A fresh object of the checked members: what the charge, and recovery after a crash, will send.
  const paymentData = checkPaymentData(Object.hasOwn(input.body, 'payment_data') ? input.body.payment_data : undefined, deps.payments.handlers());
  const current = await getCheckout(deps, { appId: input.appId, id: input.id, readAhead: input.readAhead });
  if (TERMINAL.has(current.status)) throw notAllowed(`${CHECKOUT_TERMINAL_MESSAGE} ${current.status}`);
  if (current.status === 'complete_in_progress') throw completing();
  if (current.status !== 'ready_for_payment') {
    throw new DomainError('bad_request', 'The checkout session is not ready for payment: see its messages', 'not_ready_for_payment');
  }
  const now = deps.clock.nowUs();
  const notAuthenticated = authenticationDecline(input.body);
  if (notAuthenticated) {
    // Declined before anything is held or charged, as a declined charge ends (see finishCompletion).
    const declined: CheckoutSession = {
      ...current,
      ...(buyerEmail !== undefined ? { buyerEmail } : {}),
      details: { ...current.details, ...details },
      messages: [notAuthenticated],
      updatedAtUs: now,
    };
    if (!(await deps.checkouts.replace(declined, current.version))) throw completing();
    return { ...declined, version: current.version + 1 };
  }
  const claimVersion = current.version + 1;
  const claimed: CheckoutSession = {
    ...current,
    status: 'complete_in_progress',
    ...(buyerEmail !== undefined ? { buyerEmail } : {}),
    details: { ...current.details, ...details },
    completion: { claimVersion, startedAtUs: now, paymentData, ...(input.baseUrl ? { baseUrl: input.baseUrl } : {}) },
    updatedAtUs: now,
  };
  // The catalog is read while the claim is written: the two are independent items.
  const catalog = readCatalog(deps, { appId: input.appId, requested: requestedOf(current), known: input.readAhead });
  catalog.catch(() => undefined); // awaited by finishCompletion; this only keeps a lost claim's read from going unhandled
  // From here on every other write of the session is refused until this complete settles.
  if (!(await deps.checkouts.replace(claimed, current.version))) throw completing();
  return finishCompletion(deps, { ...claimed, version: claimVersion }, 'request', { catalog, orderWebhook: input.readAhead?.orderWebhook });
}

const requestedOf = (s: CheckoutSession) => s.lines.map((l) => ({ productId: l.productId, quantity: l.quantity }));

/** What a request read for its complete before the claim: the catalog (read while the claim was written), and the app's order receiver. */
interface CompletionReads {
  readonly catalog: Promise<Catalog>;
  readonly orderWebhook: CheckoutSnapshot['orderWebhook'];
}

/** What a complete answers when the session's prices or tax rate changed since the agent last saw them. */
const PRICE_CHANGE: CheckoutMessage = {
  type: 'warning',
  code: 'price_change',
  param: '$.totals',
  content: 'Prices or tax changed since this session was priced, and nothing was charged: review the new total, then complete again',
};

/**
 * Runs a claimed complete to its end: re-checks readiness against the catalog, holds the units of
 * every limited line, charges the session's total, then settles the session. Each step is idempotent
 * for the claim (the holds are named by it, the charge's idempotency key is it, every session write
 * names the version it read), so the recovery job can run it again from the start after a crash at any point:
 * - a price or the app's tax rate changed since the session was priced (checked by the request only):
 *   nothing is held or charged, `ready_for_payment` at the new prices with a `price_change` warning;
 * - stock ran out: the holds are released, `not_ready_for_payment` with `out_of_stock`;
 * - declined: released, `ready_for_payment` with `payment_declined` (200, as ACP's examples do);
 * - refused by the provider for a reason of the merchant's: released, `ready_for_payment` with a message;
 * - succeeded: `completed` with the order, then the holds become sales and the record is cleared (in
 *   the sale's own write when the request held nothing: every line unlimited);
 * - unknown (timeout, network, 5xx): nothing moves; the session stays `complete_in_progress`.
 * A failure before the charge gives the units back and releases the claim (best effort: if that fails
 * too, recovery finishes the complete later).
 * A request holds only the lines it read as limited, and gives back only what its holds took (all of
 * them when one failed, as that one may have landed): no earlier run holds units under its claim.
 * Recovery gives back every line's, as an earlier run may have held any of them.
 */
export async function finishCompletion(deps: CheckoutDeps, s: CheckoutSession, by: 'request' | 'recovery', reads?: CompletionReads): Promise<CheckoutSession> {
  const c = s.completion!;
  const holder = completionHolder(s, c);
  const settle = async (next: Partial<CheckoutSession>, sale = false): Promise<CheckoutSession> => {
    // A sale creates the order: its `order_create` event goes into the outbox of the same write.
    const written = await appendOrderEvent(deps, s, { ...s, ...next, updatedAtUs: deps.clock.nowUs() }, reads?.orderWebhook);
    if (await deps.checkouts.replace(written, s.version, { newOrder: sale })) {
      if (written.orderEvents?.length) await requestOrderDelivery(deps, s.id);
      return { ...written, version: s.version + 1 };
    }
    // Settled by someone else (a recovery that took over): theirs is the outcome.
    return (await deps.checkouts.get(s.id)) ?? written;
  };
  let holding: readonly CheckoutLine[] = by === 'recovery' ? s.lines : [];
  const releaseAll = () => eachLine(holding, (line) => deps.inventory.release(line.productId, holder, line.quantity));
  let amount: number;
  try {
    const catalog = await (reads?.catalog ?? readCatalog(deps, { appId: s.appId, requested: requestedOf(s) }));
    const ready = readiness(catalog, {
      appId: s.appId,
      requested: requestedOf(s),
      currency: s.currency,
      lineId: (productId) => s.lines.find((l) => l.productId === productId)!.lineId,
      checkStock: false,
    });
    // The agent pays the total it saw. Recovery pays the claimed session's total as it stands: its
    // charge may already have gone through under the claim's key, for that amount.
    const repriced = ready.taxRateBps !== (s.taxRateBps ?? 0) || ready.lines.some((l, i) => l.unitAmount !== s.lines[i]!.unitAmount);
    if (by === 'request' && ready.status === 'ready_for_payment' && repriced) {
      return await settle({ status: 'ready_for_payment', lines: ready.lines, taxRateBps: ready.taxRateBps, messages: [PRICE_CHANGE], completion: null });
    }
    let messages: CheckoutMessage[] = ready.messages;
    if (ready.status === 'ready_for_payment') {
      // An unlimited product has no stock to take (one made limited since it was read sells this unit before its count).
      const limited = s.lines.filter((l) => isLimited(catalog.products.get(l.productId)));
      if (by === 'request') holding = limited;
      const held = await eachLine(limited, (line) => deps.inventory.hold(line.productId, holder, line.quantity));
      // Only a hold that answered `held` took units (when one throws, every line tried is given back, below).
      if (by === 'request') holding = limited.filter((_, i) => held[i] === 'held');
      const short = limited.find((_, i) => held[i] === 'out_of_stock');
      if (short)
        messages = [{ type: 'error', code: 'out_of_stock', param: `$.line_items[${s.lines.indexOf(short)}]`, content: `${short.title} is out of stock` }];
    }
    if (ready.status !== 'ready_for_payment' || messages.length) {
      await releaseAll();
      return await settle({ status: 'not_ready_for_payment', lines: ready.lines, taxRateBps: ready.taxRateBps, messages, completion: null });
    }
    amount = totalAmountOf(s);
  } catch (err) {
    // Nothing was charged: give the units back and release the claim, so the complete can be retried.
    // A request does it best effort (if it fails too, recovery finishes the complete later); recovery
    // does it when the catalog refused (a product gone), and otherwise leaves the claim for its next run.
    if (by === 'request' || err instanceof DomainError) {
      const rolledBack = await releaseAll()
        .then(() => settle({ status: 'ready_for_payment', completion: null }))
        .catch(() => undefined);
      if (by === 'recovery' && rolledBack) return rolledBack;
    }
    throw err;
  }
  let outcome: PaymentOutcome;
  try {
    outcome = await deps.payments.charge({
      sessionId: s.id,
      idempotencyKey: `acp-complete-${holder}`,
      amount,
      currency: s.currency,
      paymentData: c.paymentData ?? {},
    });
  } catch {
    // Charged or not, nobody knows yet: the claim stays, and recovery retries under the same key.
    return s;
  }
  if (outcome.status !== 'succeeded') {
    await releaseAll();
    const content = outcome.status === 'declined' ? outcome.message : `The payment provider refused the charge (${outcome.message}); nothing was charged`;
    return settle({
      status: 'ready_for_payment',
      completion: null,
      messages: [{ type: 'error', code: outcome.status === 'declined' ? 'payment_declined' : 'invalid', param: '$.payment_data', content }],
    });
  }
  const now = deps.clock.nowUs();
  const completed = await settle(
    {
      status: 'completed',
      messages: [],
      order: newOrder({
        id: deps.ids.uuid(),
        createdAtUs: now,
        paymentReference: outcome.reference,
        permalinkUrl: orderPermalink(c.baseUrl ?? deps.settings.publicBaseUrl ?? 'https://localhost', s.appId, s.id),
      }),
      // The record stays until the holds are committed; with none, there is nothing left to do.
      completion: holding.length ? { ...c, paymentData: null } : null,
    },
    true,
  );
  return completed.status === 'completed' && completed.completion ? commitSale(deps, completed, holding) : completed;
}

/**
 * `step` on every line at once. When one fails, its error once every step has settled, so no step is
 * still in flight behind the rollback that follows (a hold landing after its release would keep units).
 */
async function eachLine<T>(lines: readonly CheckoutLine[], step: (line: CheckoutLine) => Promise<T>): Promise<T[]> {
  const settled = await Promise.allSettled(lines.map(step));
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/**
 * The last step of a completed sale: its holds become sales, and the write-ahead record goes. `lines`:
 * those that may hold units (a request's own holds; every line when recovery finishes a sale).
 */
export async function commitSale(deps: CheckoutDeps, s: CheckoutSession, lines: readonly CheckoutLine[] = s.lines): Promise<CheckoutSession> {
  const holder = completionHolder(s, s.completion!);
  await eachLine(lines, (line) => deps.inventory.commit(line.productId, holder, line.quantity));
  const done: CheckoutSession = { ...s, completion: null };
  return (await deps.checkouts.replace(done, s.version)) ? { ...done, version: s.version + 1 } : s;
}
