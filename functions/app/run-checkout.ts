/**
 * Checkout sessions of area C: create, read, update, complete and cancel, with the state machine of
 * `../shared/reference/acp.md` §2. Totals are computed here from the catalog; inventory is reserved
 * only on complete, with one conditional decrement per product, so concurrent completes never oversell.
 */
import { CHECKOUT_TERMINAL_MESSAGE, readiness } from './checkout-readiness';
import { liveApp } from './manage-products';
import {
  CHECKOUT_TTL_MS,
  COMPLETION_LEASE_MS,
  TERMINAL,
  completionHolder,
  invalid,
  parseLineItems,
  totalsOf,
  type CheckoutMessage,
  type CheckoutSession,
} from '../domain/acp/checkout';
import { checkRequestFields } from '../domain/acp/checkout-request';
import { DomainError } from '../domain/errors';
import { msToMicros } from '../domain/time';
import type { AcpPorts, CheckoutPorts, PaymentOutcome } from '../ports/acp';
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
  const details = checkRequestFields(input.body, 'create');
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
    details,
    completion: null,
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
    const details = checkRequestFields(input.body, 'update', current.lines.map((l) => l.lineId));
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
      details: { ...current.details, ...details },
      updatedAtUs: deps.clock.nowUs(),
    };
    if (await deps.checkouts.replace(next, current.version)) return { ...next, version: current.version + 1 };
  }
  throw new DomainError('conflict', 'The checkout session is being changed by another request: retry', 'conflict');
}

export async function cancelCheckout(deps: CheckoutDeps, input: { appId: string; id: string; body: Record<string, unknown> }): Promise<CheckoutSession> {
  checkRequestFields(input.body, 'cancel');
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
 * The `payment_data` of a complete: ACP 2026-04-17 `{handler_id, instrument: {type, credential: {type,
 * token}}, billing_address?, ...}`, or the 2025-09-29 `{token, provider, billing_address?}`. A handler
 * the session does not offer is a 400.
 */
function paymentDataOf(deps: CheckoutDeps, body: Record<string, unknown>): Record<string, unknown> {
  const data = body.payment_data;
  if (!isRecord(data)) throw invalid('missing', 'payment_data is required: { handler_id, instrument: { type, credential: { type, token } } }', '$.payment_data');
  const handlerId = data.handler_id;
  if (handlerId !== undefined && !deps.payments.handlers().some((h) => h.id === handlerId)) {
    throw invalid('invalid', `Unknown payment handler: ${String(handlerId).slice(0, 100)}`, '$.payment_data.handler_id');
  }
  const instrument = data.instrument;
  if (instrument !== undefined) {
    const credential = isRecord(instrument) ? instrument.credential : undefined;
    if (!isRecord(instrument) || typeof instrument.type !== 'string' || !isRecord(credential) || typeof credential.token !== 'string' || !credential.token) {
      throw invalid('invalid', 'payment_data.instrument must be { type, credential: { type, token } }', '$.payment_data.instrument');
    }
  } else if (typeof data.token !== 'string' || !data.token) {
    throw invalid('missing', 'payment_data needs instrument.credential.token (or the 2025-09-29 token)', '$.payment_data.instrument');
  }
  if (data.provider !== undefined && typeof data.provider !== 'string') throw invalid('invalid', 'payment_data.provider must be a string', '$.payment_data.provider');
  return data;
}

/**
 * Complete: claims the session (`complete_in_progress`, with the write-ahead `completion` record), then
 * finishes it (see finishCompletion). A complete whose payment outcome is unknown answers the session
 * still `complete_in_progress`, as ACP's asynchronous complete does; recovery finishes it.
 */
export async function completeCheckout(deps: CheckoutDeps, input: { appId: string; id: string; body: Record<string, unknown> }): Promise<CheckoutSession> {
  const details = checkRequestFields(input.body, 'complete');
  const buyerEmail = buyerEmailOf(input.body);
  const paymentData = paymentDataOf(deps, input.body);
  const current = await getCheckout(deps, input);
  if (TERMINAL.has(current.status)) throw notAllowed(`${CHECKOUT_TERMINAL_MESSAGE} ${current.status}`);
  if (current.status === 'complete_in_progress') throw completing();
  if (current.status !== 'ready_for_payment') {
    throw new DomainError('bad_request', 'The checkout session is not ready for payment: see its messages', 'not_ready_for_payment');
  }
  const now = deps.clock.nowUs();
  const claimVersion = current.version + 1;
  const claimed: CheckoutSession = {
    ...current,
    status: 'complete_in_progress',
    ...(buyerEmail !== undefined ? { buyerEmail } : {}),
    details: { ...current.details, ...details },
    completion: { claimVersion, startedAtUs: now, paymentData },
    updatedAtUs: now,
  };
  // From here on every other write of the session is refused until this complete settles.
  if (!(await deps.checkouts.replace(claimed, current.version))) throw completing();
  return finishCompletion(deps, { ...claimed, version: claimVersion }, 'request');
}

/**
 * Runs a claimed complete to its end: re-checks readiness against the catalog, holds every line's
 * units, charges, then settles the session. Each step is idempotent for the claim (the holds are named
 * by it, the charge's idempotency key is it, every session write names the version it read), so the
 * recovery job can run it again from the start after a crash at any point:
 * - stock ran out: the holds are released, `not_ready_for_payment` with `out_of_stock`;
 * - declined: released, `ready_for_payment` with `payment_declined` (200, as ACP's examples do);
 * - refused by the provider for a reason of the merchant's: released, `ready_for_payment` with a message;
 * - succeeded: `completed` with the order, then the holds become sales and the record is cleared;
 * - unknown (timeout, network, 5xx): nothing moves; the session stays `complete_in_progress`.
 * A failure before the charge gives the units back and releases the claim (best effort: if that fails
 * too, recovery finishes the complete later).
 */
async function finishCompletion(deps: CheckoutDeps, s: CheckoutSession, by: 'request' | 'recovery'): Promise<CheckoutSession> {
  const c = s.completion!;
  const holder = completionHolder(s, c);
  const settle = async (next: Partial<CheckoutSession>): Promise<CheckoutSession> => {
    const written: CheckoutSession = { ...s, ...next, updatedAtUs: deps.clock.nowUs() };
    if (await deps.checkouts.replace(written, s.version)) return { ...written, version: s.version + 1 };
    // Settled by someone else (a recovery that took over): theirs is the outcome.
    return (await deps.checkouts.get(s.id)) ?? written;
  };
  const releaseAll = async () => {
    for (const line of s.lines) await deps.inventory.release(line.productId, holder, line.quantity);
  };
  let amount: number;
  try {
    const ready = await readiness(deps, {
      appId: s.appId,
      requested: s.lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
      currency: s.currency,
      lineId: (productId) => s.lines.find((l) => l.productId === productId)!.lineId,
      checkStock: false,
    });
    let messages: CheckoutMessage[] = ready.messages;
    if (ready.status === 'ready_for_payment') {
      for (const [i, line] of s.lines.entries()) {
        if ((await deps.inventory.hold(line.productId, holder, line.quantity)) !== 'out_of_stock') continue;
        messages = [{ type: 'error', code: 'out_of_stock', param: `$.line_items[${i}]`, content: `${line.title} is out of stock` }];
        break;
      }
    }
    if (ready.status !== 'ready_for_payment' || messages.length) {
      await releaseAll();
      return await settle({ status: 'not_ready_for_payment', lines: ready.lines, messages, completion: null });
    }
    amount = totalsOf(ready).find((t) => t.type === 'total')!.amount;
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
    outcome = await deps.payments.charge({ sessionId: s.id, idempotencyKey: `acp-complete-${holder}`, amount, currency: s.currency, paymentData: c.paymentData ?? {} });
  } catch {
    // Charged or not, nobody knows yet: the claim stays, and recovery retries under the same key.
    return s;
  }
  if (outcome.status !== 'succeeded') {
    await releaseAll();
    const content = outcome.status === 'declined' ? outcome.message : `The payment provider refused the charge (${outcome.message}); nothing was charged`;
    return settle({ status: 'ready_for_payment', completion: null, messages: [{ type: 'error', code: outcome.status === 'declined' ? 'payment_declined' : 'invalid', param: '$.payment_data', content }] });
  }
  const now = deps.clock.nowUs();
  const completed = await settle({
    status: 'completed',
    messages: [],
    order: { id: deps.ids.uuid(), createdAtUs: now, paymentReference: outcome.reference },
    completion: { ...c, paymentData: null },
  });
  return completed.status === 'completed' && completed.completion ? commitSale(deps, completed) : completed;
}

/** The last step of a completed sale: its holds become sales, and the write-ahead record goes. */
async function commitSale(deps: CheckoutDeps, s: CheckoutSession): Promise<CheckoutSession> {
  const holder = completionHolder(s, s.completion!);
  for (const line of s.lines) await deps.inventory.commit(line.productId, holder, line.quantity);
  const done: CheckoutSession = { ...s, completion: null };
  return (await deps.checkouts.replace(done, s.version)) ? { ...done, version: s.version + 1 } : s;
}

/**
 * Finishes a complete whose request is gone (a crash, a timeout, an unknown payment outcome) once its
 * lease ran out: the recoverer first takes the claim over with a conditional write, so two recoverers
 * never run one complete at once. A completed sale with uncommitted holds is committed.
 */
export async function recoverCompletion(deps: CheckoutDeps, s: CheckoutSession): Promise<CheckoutSession> {
  if (!s.completion) return s;
  if (s.status === 'completed') return commitSale(deps, s);
  if (s.status !== 'complete_in_progress') {
    // Not reachable by the flows above; cleared so the queue never holds it forever.
    const cleared: CheckoutSession = { ...s, completion: null };
    return (await deps.checkouts.replace(cleared, s.version)) ? { ...cleared, version: s.version + 1 } : s;
  }
  if (deps.clock.nowUs() - s.updatedAtUs < msToMicros(COMPLETION_LEASE_MS)) return s;
  const taken: CheckoutSession = { ...s, updatedAtUs: deps.clock.nowUs() };
  if (!(await deps.checkouts.replace(taken, s.version))) return (await deps.checkouts.get(s.id)) ?? s;
  return finishCompletion(deps, { ...taken, version: s.version + 1 }, 'recovery');
}

/** The recovery job: every complete that still owes work, oldest first. */
export async function recoverCompletions(deps: CheckoutDeps, input: { maxSessions: number }): Promise<Record<string, number>> {
  const counts = { completed: 0, settledOtherwise: 0, stillPending: 0, failed: 0 };
  for (const listed of await deps.checkouts.listOwingCompletion(input.maxSessions)) {
    try {
      const current = await deps.checkouts.get(listed.id);
      if (!current?.completion) continue;
      const after = await recoverCompletion(deps, current);
      if (after.completion && after.status === 'complete_in_progress') counts.stillPending++;
      else if (after.status === 'completed') counts.completed++;
      else counts.settledOtherwise++;
    } catch {
      counts.failed++;
    }
  }
  return counts;
}

/** The app's orders (completed sessions), newest first, for the admin API. */
export async function listOrders(deps: Pick<Deps, 'apps'> & CheckoutPorts, input: { appId: string; limit: number }): Promise<CheckoutSession[]> {
  const app = await liveApp(deps, input.appId);
  return deps.checkouts.listCompletedByApp(app.id, input.limit);
}
