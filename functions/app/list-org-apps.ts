import type { App } from '../domain/app';
import type { Deps } from '../ports/deps';

/** The org's non-deleted apps, newest first (created_at, then id). */
export async function listOrgApps(deps: Pick<Deps, 'apps'>, input: { orgId: string }): Promise<App[]> {
  return deps.apps.listByOrg(input.orgId);
}
