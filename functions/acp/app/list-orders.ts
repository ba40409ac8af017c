import { liveApp } from './manage-products';
import type { CheckoutSession } from '../domain/checkout';
import type { CheckoutPorts } from './acp-ports';
import type { AcpDeps } from './acp-ports';

/** The app's orders (completed sessions), newest first, for the admin API. */
export async function listOrders(deps: Pick<AcpDeps, 'apps'> & CheckoutPorts, input: { appId: string; limit: number }): Promise<CheckoutSession[]> {
  const app = await liveApp(deps, input.appId);
  return deps.checkouts.listCompletedByApp(app.id, input.limit);
}
