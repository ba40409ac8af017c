import { badRequest } from '../../kernel/domain/errors';
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
