import { badRequest, notFound } from '../../kernel/domain/errors';
import type { Org, Plan } from '../domain/org';
import type { PlatformDeps } from './tenancy-ports';

/** Creates an org on a plan; a caller that reserved the org's id before (a first sign-in) passes it. */
export async function createOrg(deps: Pick<PlatformDeps, 'orgs' | 'ids' | 'clock'>, input: { name: string; plan: Plan; id?: string }): Promise<Org> {
  if (!input.name.trim()) throw badRequest('Invalid name: must not be empty');
  const now = deps.clock.nowUs();
  const org: Org = { id: input.id ?? deps.ids.uuid(), name: input.name.trim(), plan: input.plan, createdAtUs: now, updatedAtUs: now };
  await deps.orgs.create(org);
  return org;
}

/** Renames an org or changes its plan (the plan only through the admin API: the operator bills). */
export async function updateOrg(
  deps: Pick<PlatformDeps, 'orgs' | 'clock'>,
  input: { orgId: string; name?: string; plan?: Plan },
): Promise<{ before: Org; after: Org }> {
  if (input.name !== undefined && !input.name.trim()) throw badRequest('Invalid name: must not be empty');
  const before = await deps.orgs.get(input.orgId);
  if (!before) throw notFound('Org not found');
  const patch = { ...(input.name !== undefined ? { name: input.name.trim() } : {}), ...(input.plan !== undefined ? { plan: input.plan } : {}) };
  const after = await deps.orgs.update(input.orgId, patch, deps.clock.nowUs());
  if (!after) throw notFound('Org not found');
  return { before, after };
}
