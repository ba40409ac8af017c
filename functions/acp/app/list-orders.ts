import { liveApp, type AppScope } from './manage-products';
import type { CheckoutPorts, OrderPage } from './acp-ports';
import type { AcpDeps } from './acp-ports';

/** A page of the app's orders (completed sessions), newest first, for the admin and console APIs. */
export async function listOrders(deps: Pick<AcpDeps, 'apps'> & CheckoutPorts, input: AppScope & { limit: number; cursor?: string }): Promise<OrderPage> {
  const app = await liveApp(deps, input.appId, input.orgId);
  return deps.checkouts.listCompletedByApp(app.id, input.limit, input.cursor);
}
