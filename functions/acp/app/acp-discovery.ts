/** What the public discovery routes of area C answer for one app (404 for an unknown or deleted app). */
import { acpDiscovery, agentCard, productsResponse } from '../domain/discovery';
import type { AcpPorts } from './acp-ports';
import type { AcpDeps } from './acp-ports';
import { liveApp } from './manage-products';

type DiscoveryDeps = Pick<AcpDeps, 'apps'> & AcpPorts;

export async function publicProducts(deps: DiscoveryDeps, input: { appId: string }) {
  const app = await liveApp(deps, input.appId);
  return productsResponse(await deps.products.listByApp(app.id, { activeOnly: true }));
}

async function currenciesOf(deps: DiscoveryDeps, appId: string): Promise<string[]> {
  return (await deps.products.listByApp(appId, { activeOnly: true })).map((p) => p.currency);
}

export async function discoveryDocument(deps: DiscoveryDeps, input: { appId: string; baseUrl: string }) {
  const app = await liveApp(deps, input.appId);
  return acpDiscovery({ baseUrl: input.baseUrl, appId: app.id, currencies: await currenciesOf(deps, app.id) });
}

export async function agentCardDocument(deps: DiscoveryDeps, input: { appId: string; baseUrl: string }) {
  const app = await liveApp(deps, input.appId);
  return agentCard({ baseUrl: input.baseUrl, appId: app.id, appName: app.name, currencies: await currenciesOf(deps, app.id) });
}
