/**
 * Members of an org: list them, change a role, remove one; and the orgs a person belongs to. The
 * org never loses its last owner: the owner guard (`MemberStore.owners`) gives up an owner before the
 * membership changes, and refuses to give up the last one, so two owners demoting each other at once
 * cannot both succeed.
 */
import { notFound } from '../../kernel/domain/errors';
import type { Member } from '../domain/members';
import { roleChangeRefusal, type Authority, type Role } from '../domain/roles';
import { authorize, conflict, forbidden, recordAudit, type Acting } from './act-on-org';
import type { MembersDeps } from './members-ports';

export async function listMembers(deps: Pick<MembersDeps, 'members'>, input: { orgId: string } & Pick<Acting, 'by'>): Promise<Member[]> {
  await authorize(deps, input.orgId, input.by, 'members.read');
  return deps.members.listByOrg(input.orgId);
}

/** The orgs a signed-in person belongs to, with their role in each. */
export async function orgsOfPerson(deps: Pick<MembersDeps, 'members'>, input: { userKey: string }): Promise<Member[]> {
  return deps.members.listByPerson(input.userKey);
}

/**
 * The same rule as `roleChangeRefusal`, as the error a caller sees. The owners it counts are the
 * memberships'; the owner guard then enforces the last-owner rule against concurrent changes.
 */
export async function checkRoleChange(
  deps: Pick<MembersDeps, 'members'>,
  orgId: string,
  change: { actor: Authority; current: Role | undefined; next: Role | undefined },
): Promise<void> {
  const owners = change.current === 'owner' ? (await deps.members.listByOrg(orgId)).filter((m) => m.role === 'owner').length : 1;
  const refusal = roleChangeRefusal({ ...change, owners });
  if (refusal === 'not_permitted') throw forbidden('Your role may not manage members');
  if (refusal === 'owner_only') throw forbidden('Only an owner may grant, change or remove the owner role');
  if (refusal === 'last_owner') throw lastOwner();
}

/** Another change to the same membership landed between our read and our write: nothing was written. */
const changedMeanwhile = () => conflict('This member changed meanwhile: reload and try again');

const lastOwner = () => conflict('An organisation keeps at least one owner: make another member owner first');

/** Gives up `userKey`'s place in the owner guard before its owner role changes; refuses for the last owner. */
async function releaseOwnership(deps: Pick<MembersDeps, 'members'>, orgId: string, userKey: string): Promise<void> {
  if ((await deps.members.releaseOwner(orgId, userKey)) === 'last') throw lastOwner();
}

/**
 * Changes a member's role. A retry after a crash converges: a promotion writes the membership, then
 * adds the owner to the guard (a second call with the same role only completes that); a demotion
 * leaves the guard, records the change, then writes the membership. The write holds only if the role
 * is still the one read, so a concurrent change or removal is never undone (nor the guard overstated).
 */
export async function changeMemberRole(deps: MembersDeps, input: { orgId: string; userKey: string; role: Role } & Acting): Promise<Member> {
  const who = await authorize(deps, input.orgId, input.by, 'members.manage');
  const target = await deps.members.get(input.orgId, input.userKey);
  if (!target) throw notFound('Member not found');
  if (target.role === input.role) {
    if (target.role === 'owner') await deps.members.addOwner(input.orgId, target.userKey);
    return target;
  }
  await checkRoleChange(deps, input.orgId, { actor: who.authority, current: target.role, next: input.role });
  if (target.role === 'owner') await releaseOwnership(deps, input.orgId, target.userKey);
  await recordAudit(
    deps,
    { actor: who.actor, origin: input.origin },
    {
      orgId: input.orgId,
      action: 'member.role_change',
      resource: { type: 'member', id: target.userKey },
      before: { role: target.role },
      after: { role: input.role },
    },
  );
  const changed = await deps.members.changeRole(input.orgId, target.userKey, target.role, input.role);
  if (!changed) throw changedMeanwhile();
  if (changed.role === 'owner') await deps.members.addOwner(input.orgId, changed.userKey);
  return changed;
}

/** Removes a member (never the last owner). Removing one who is gone already is a 404. */
export async function removeMember(deps: MembersDeps, input: { orgId: string; userKey: string } & Acting): Promise<void> {
  const who = await authorize(deps, input.orgId, input.by, 'members.manage');
  const target = await deps.members.get(input.orgId, input.userKey);
  if (!target) throw notFound('Member not found');
  await checkRoleChange(deps, input.orgId, { actor: who.authority, current: target.role, next: undefined });
  if (target.role === 'owner') await releaseOwnership(deps, input.orgId, target.userKey);
  await recordAudit(
    deps,
    { actor: who.actor, origin: input.origin },
    {
      orgId: input.orgId,
      action: 'member.remove',
      resource: { type: 'member', id: target.userKey },
      before: { email: target.email, role: target.role },
    },
  );
  if (!(await deps.members.remove(input.orgId, target.userKey, target.role))) throw changedMeanwhile();
}
