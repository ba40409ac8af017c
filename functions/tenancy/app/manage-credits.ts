import { badRequest, notFound } from '../../kernel/domain/errors';
import { formatUsd, parseUsd } from '../domain/pricing';
import type { PlatformDeps } from './tenancy-ports';

/**
 * Adds prepaid credits to an org (opening its prepaid account on the first call). From then on a chat
 * turn is refused with 402 once the balance is used up; an org without an account is billed postpaid.
 */
export async function addCredits(deps: Pick<PlatformDeps, 'orgs' | 'billing'>, input: { orgId: string; amountUsd: string }): Promise<{ creditsUsd: string }> {
  if (!(await deps.orgs.get(input.orgId))) throw notFound('Org not found');
  const pico = parseUsd(input.amountUsd);
  if (pico === undefined) throw badRequest('Invalid amountUsd: must be a decimal USD amount such as "10.00"');
  return { creditsUsd: formatUsd(await deps.billing.addCredits(input.orgId, pico)) };
}

/** The org's plan and prepaid balance (`null`: no prepaid account, billed postpaid). */
export async function readPlan(deps: Pick<PlatformDeps, 'orgs' | 'billing'>, input: { orgId: string }): Promise<{ plan: string; creditsUsd: string | null }> {
  const [org, credits] = await Promise.all([deps.orgs.get(input.orgId), deps.billing.credits(input.orgId)]);
  if (!org) throw notFound('Org not found');
  return { plan: org.plan, creditsUsd: credits === undefined ? null : formatUsd(credits) };
}
