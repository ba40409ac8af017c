import type { App } from '../../tenancy/domain/app';
import type { ExportDeps } from './export-ports';

/** The org's non-deleted apps, newest first (created_at, then id). */
export async function listOrgApps(deps: Pick<ExportDeps, 'apps'>, input: { orgId: string }): Promise<App[]> {
  return deps.apps.listByOrg(input.orgId);
}
