import { liveApp } from './manage-products';
import type { CheckoutSession } from '../domain/acp/checkout';
import type { CheckoutPorts } from '../ports/acp';
import type { Deps } from '../ports/deps';

/** The app's orders (completed sessions), newest first, for the admin API. */
export async function listOrders(deps: Pick<Deps, 'apps'> & CheckoutPorts, input: { appId: string; limit: number }): Promise<CheckoutSession[]> {
  const app = await liveApp(deps, input.appId);
  return deps.checkouts.listCompletedByApp(app.id, input.limit);
}
