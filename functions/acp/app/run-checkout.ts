/**
 * Checkout sessions of area C: create, read, update, complete and cancel, with the Agentic Commerce
 * Protocol's checkout state machine (ADR 0017). Totals are computed here from the catalog; inventory is
 * reserved only on complete, with one conditional decrement per product, so concurrent completes never
 * oversell.
 * Completing a session is complete-checkout.ts; finishing a complete whose request is gone is
 * recover-checkout-completions.ts.
 */
import { CHECKOUT_TERMINAL_MESSAGE, readCatalog, readiness } from './checkout-readiness';
import { CHECKOUT_TTL_MS, TERMINAL, invalid, parseLineItems, type CheckoutSession } from '../domain/checkout';
import { checkRequestFields } from '../domain/checkout-request';
import { DomainError } from '../../kernel/domain/errors';
import { isRecord } from '../../kernel/domain/request-rule';
import { msToMicros } from '../../kernel/domain/time';
import type { AcpPorts, CheckoutPorts, CheckoutSnapshot } from './acp-ports';
import type { AcpDeps } from './acp-ports';
import { isUuid } from '../../kernel/domain/ids';

export type CheckoutDeps = Pick<AcpDeps, 'ids' | 'clock' | 'settings'> & AcpPorts & CheckoutPorts;

/** Optimistic writes retry a bounded number of times; a session this contended answers 409. */
const MAX_ATTEMPTS = 5;

export function notAllowed(message: string): DomainError {
  return new DomainError('not_allowed', message, 'invalid_state');
}

/** Another request is completing the session: retry shortly (409, like ACP's in-flight answer). */
export function completing(): DomainError {
  return new DomainError('conflict', 'The checkout session is being completed by another request: retry shortly', 'complete_in_progress');
}

export function buyerEmailOf(body: Record<string, unknown>): string | null | undefined {
  if (body.buyer === undefined) return undefined;
  if (body.buyer === null) return null;
  if (!isRecord(body.buyer) || typeof body.buyer.email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(body.buyer.email) || body.buyer.email.length > 320) {
    throw invalid('invalid', 'buyer.email must be an email address', '$.buyer.email');
  }
  return body.buyer.email;
}

/**
 * The app's session, with lazy expiry applied; another app's or an unknown id is 404 (nothing leaks).
 * `readAhead` is what the request read in one batch while its key was claimed (http/acp-checkout.ts),
 * this session among it: a use case takes what it needs from there, and a retry after a lost race
 * reads afresh.
 */
export async function getCheckout(deps: CheckoutDeps, input: { appId: string; id: string; readAhead?: CheckoutSnapshot }): Promise<CheckoutSession> {
  const readAhead = input.readAhead?.session;
  const found = !isUuid(input.id) ? undefined : readAhead !== undefined ? (readAhead ?? undefined) : await deps.checkouts.get(input.id);
  if (!found || found.appId !== input.appId) throw new DomainError('not_found', 'Checkout session not found', 'not_found');
  // A session being completed is never expired underneath its complete.
  if (!TERMINAL.has(found.status) && found.status !== 'complete_in_progress' && deps.clock.nowUs() > found.expiresAtUs) {
    const expired: CheckoutSession = { ...found, status: 'expired', updatedAtUs: deps.clock.nowUs() };
    if (await deps.checkouts.replace(expired, found.version)) return { ...expired, version: found.version + 1 };
    return getCheckout(deps, { appId: input.appId, id: input.id });
  }
  return found;
}

export async function createCheckout(
  deps: CheckoutDeps,
  input: { appId: string; orgId: string; body: Record<string, unknown>; readAhead?: CheckoutSnapshot },
): Promise<CheckoutSession> {
  const details = checkRequestFields(input.body, 'create');
  const requested = parseLineItems(input.body, true)!;
  const currency = input.body.currency;
  if (currency !== undefined && (typeof currency !== 'string' || !/^[A-Za-z]{3}$/.test(currency)))
    throw invalid('invalid', 'currency must be an ISO 4217 code such as usd', '$.currency');
  const buyerEmail = buyerEmailOf(input.body) ?? null;
  const now = deps.clock.nowUs();
  const catalog = await readCatalog(deps, { appId: input.appId, requested, known: input.readAhead });
  const ready = readiness(catalog, {
    appId: input.appId,
    requested,
    currency: typeof currency === 'string' ? currency.toLowerCase() : undefined,
    lineId: () => `li_${deps.ids.secret(16)}`,
  });
  const session: CheckoutSession = {
    id: deps.ids.uuid(),
    orgId: input.orgId,
    appId: input.appId,
    status: ready.status,
    currency: ready.currency,
    lines: ready.lines,
    taxRateBps: ready.taxRateBps,
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
export async function updateCheckout(
  deps: CheckoutDeps,
  input: { appId: string; id: string; body: Record<string, unknown>; readAhead?: CheckoutSnapshot },
): Promise<CheckoutSession> {
  const requested = parseLineItems(input.body, false);
  const buyerEmail = buyerEmailOf(input.body);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const readAhead = attempt === 0 ? input.readAhead : undefined;
    const current = await getCheckout(deps, { appId: input.appId, id: input.id, readAhead });
    if (TERMINAL.has(current.status)) throw notAllowed(`${CHECKOUT_TERMINAL_MESSAGE} ${current.status}`);
    if (current.status === 'complete_in_progress') throw completing();
    // A selected option may name the session's lines, or the items this update puts in it.
    const details = checkRequestFields(input.body, 'update', [...current.lines, ...(requested ?? [])]);
    const lines = requested ?? current.lines.map((l) => ({ productId: l.productId, quantity: l.quantity }));
    const ready = readiness(await readCatalog(deps, { appId: input.appId, requested: lines, known: readAhead }), {
      appId: input.appId,
      requested: lines,
      currency: current.currency,
      lineId: (productId) => current.lines.find((l) => l.productId === productId)?.lineId ?? `li_${deps.ids.secret(16)}`,
    });
    const next: CheckoutSession = {
      ...current,
      status: ready.status,
      lines: ready.lines,
      taxRateBps: ready.taxRateBps,
      messages: ready.messages,
      ...(buyerEmail !== undefined ? { buyerEmail } : {}),
      details: { ...current.details, ...details },
      updatedAtUs: deps.clock.nowUs(),
    };
    if (await deps.checkouts.replace(next, current.version)) return { ...next, version: current.version + 1 };
  }
  throw new DomainError('conflict', 'The checkout session is being changed by another request: retry', 'conflict');
}

export async function cancelCheckout(
  deps: CheckoutDeps,
  input: { appId: string; id: string; body: Record<string, unknown>; readAhead?: CheckoutSnapshot },
): Promise<CheckoutSession> {
  checkRequestFields(input.body, 'cancel');
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await getCheckout(deps, { appId: input.appId, id: input.id, readAhead: attempt === 0 ? input.readAhead : undefined });
    if (TERMINAL.has(current.status)) throw notAllowed(`${CHECKOUT_TERMINAL_MESSAGE} ${current.status}`);
    if (current.status === 'complete_in_progress') throw completing();
    const next: CheckoutSession = { ...current, status: 'canceled', messages: [], updatedAtUs: deps.clock.nowUs() };
    if (await deps.checkouts.replace(next, current.version)) return { ...next, version: current.version + 1 };
  }
  throw new DomainError('conflict', 'The checkout session is being changed by another request: retry', 'conflict');
}
