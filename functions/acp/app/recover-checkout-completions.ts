/**
 * Recovery of checkout completes whose request is gone, run by the scheduled job: each one is taken
 * over and finished the way complete-checkout.ts finishes a complete.
 */
import { commitSale, finishCompletion } from './complete-checkout';
import { settleOrder } from './manage-orders';
import { requestOrderDelivery } from './order-events';
import { owedRestocks, pendingRefund } from '../domain/order';
import type { CheckoutDeps } from './run-checkout';
import { COMPLETION_LEASE_MS, type CheckoutSession } from '../domain/checkout';
import { msToMicros } from '../../kernel/domain/time';

/**
 * Finishes a complete whose request is gone (a crash, a timeout, an unknown payment outcome) once its
 * lease ran out: the recoverer first takes the claim over with a conditional write, so two recoverers
 * never run one complete at once. A completed sale with uncommitted holds is committed.
 */
export async function recoverCompletion(deps: CheckoutDeps, s: CheckoutSession): Promise<CheckoutSession> {
  if (!s.completion) return s;
  if (s.status === 'completed') return commitSale(deps, s);
  if (s.status !== 'complete_in_progress') {
    // Not reachable by the flows of complete-checkout.ts; cleared so the queue never holds it forever.
    const cleared: CheckoutSession = { ...s, completion: null };
    return (await deps.checkouts.replace(cleared, s.version)) ? { ...cleared, version: s.version + 1 } : s;
  }
  if (deps.clock.nowUs() - s.updatedAtUs < msToMicros(COMPLETION_LEASE_MS)) return s;
  const taken: CheckoutSession = { ...s, updatedAtUs: deps.clock.nowUs() };
  if (!(await deps.checkouts.replace(taken, s.version))) return (await deps.checkouts.get(s.id)) ?? s;
  return finishCompletion(deps, { ...taken, version: s.version + 1 }, 'recovery');
}

/**
 * The recovery job: every session that still owes work, oldest first. A complete is finished as above;
 * an order whose last change still owes stock or a refund is settled (settleOrder); an order whose
 * outbox holds events asks the order-events worker again. Work younger than the completion lease is
 * left to the request or the worker that is doing it.
 */
export async function recoverCompletions(deps: CheckoutDeps, input: { maxSessions: number }): Promise<Record<string, number>> {
  const counts = { completed: 0, settledOtherwise: 0, stillPending: 0, ordersSettled: 0, eventDeliveriesRequested: 0, failed: 0 };
  const lease = msToMicros(COMPLETION_LEASE_MS);
  for (const listed of await deps.checkouts.listOwingCompletion(input.maxSessions)) {
    try {
      let current = await deps.checkouts.get(listed.id);
      if (!current) continue;
      const staleBefore = deps.clock.nowUs() - lease;
      if (current.completion) {
        const after = await recoverCompletion(deps, current);
        if (after.completion && after.status === 'complete_in_progress') counts.stillPending++;
        else if (after.status === 'completed') counts.completed++;
        else counts.settledOtherwise++;
        current = after;
      }
      if (current.order && !current.completion) {
        const owed = [pendingRefund(current.order), ...owedRestocks(current.order)].filter((a) => a !== undefined);
        if (owed.some((a) => a.occurredAtUs < staleBefore)) {
          current = await settleOrder(deps, current);
          counts.ordersSettled++;
        }
      }
      if (current.orderEvents?.some((e) => e.createdAtUs < staleBefore)) {
        if (await requestOrderDelivery(deps, current.id)) counts.eventDeliveriesRequested++;
      }
    } catch {
      counts.failed++;
    }
  }
  return counts;
}

/** Scheduled job `checkout-recovery`: at most `maxItems` sessions per run. */
export const checkoutRecoveryJob = (deps: CheckoutDeps, maxItems: number) => recoverCompletions(deps, { maxSessions: maxItems });
