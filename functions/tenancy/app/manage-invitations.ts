/**
 * Invitations: an owner or admin invites an e-mail address with a role; the token is returned once;
 * the invited person, signed in with that verified address, accepts it once. Accepting marks the
 * invitation first (the single-use gate, a conditional write), then records the change and writes the
 * membership: a crash after the mark converges when the same person accepts again.
 */
import { badRequest, DomainError, notFound } from '../../kernel/domain/errors';
import { hashCredential } from '../domain/credentials';
import {
  DAY_US,
  INVITATION_TOKEN_LENGTH,
  INVITATION_TOKEN_PREFIX,
  INVITATION_TTL_DAYS,
  invitationState,
  MAX_INVITATION_TTL_DAYS,
  type Invitation,
} from '../domain/invitations';
import { isEmailAddress, normaliseEmail, userKeyOf, type Member, type VerifiedIdentity } from '../domain/members';
import type { Role } from '../domain/roles';
import { authorize, conflict, forbidden, recordAudit, type Acting, type RequestOrigin } from './act-on-org';
import { checkRoleChange } from './manage-members';
import type { MembersDeps } from './members-ports';

export interface IssuedInvitation {
  /** The raw token: returned exactly once, never stored. */
  readonly token: string;
  readonly invitation: Invitation;
}

export async function inviteMember(
  deps: MembersDeps,
  input: { orgId: string; email: string; role: Role; ttlDays?: number } & Acting,
): Promise<IssuedInvitation> {
  const who = await authorize(deps, input.orgId, input.by, 'invitations.manage');
  await checkRoleChange(deps, input.orgId, { actor: who.authority, current: undefined, next: input.role });
  const email = normaliseEmail(input.email);
  if (!isEmailAddress(email)) throw badRequest('Invalid email: must be one e-mail address');
  const ttlDays = input.ttlDays ?? INVITATION_TTL_DAYS;
  if (!Number.isInteger(ttlDays) || ttlDays < 1 || ttlDays > MAX_INVITATION_TTL_DAYS)
    throw badRequest(`Invalid ttlDays: must be a whole number of days from 1 to ${MAX_INVITATION_TTL_DAYS}`);
  if ((await deps.members.listByOrg(input.orgId)).some((m) => m.email === email)) throw conflict('This address is a member already');
  const token = INVITATION_TOKEN_PREFIX + deps.ids.secret(INVITATION_TOKEN_LENGTH);
  const now = deps.clock.nowUs();
  const invitation: Invitation = {
    id: deps.ids.uuid(),
    orgId: input.orgId,
    email,
    role: input.role,
    tokenHash: hashCredential(token),
    invitedBy: who.actor.id,
    createdAtUs: now,
    expiresAtUs: now + ttlDays * DAY_US,
  };
  await recordAudit(
    deps,
    { actor: who.actor, origin: input.origin },
    {
      orgId: input.orgId,
      action: 'invitation.create',
      resource: { type: 'invitation', id: invitation.id },
      after: invitation,
    },
  );
  await deps.invitations.create(invitation);
  return { token, invitation };
}

/** The org's invitations still waiting for an answer, newest first. */
export async function listPendingInvitations(
  deps: Pick<MembersDeps, 'members' | 'invitations' | 'clock'>,
  input: { orgId: string } & Pick<Acting, 'by'>,
): Promise<Invitation[]> {
  await authorize(deps, input.orgId, input.by, 'invitations.manage');
  const now = deps.clock.nowUs();
  return (await deps.invitations.listByOrg(input.orgId)).filter((i) => invitationState(i, now) === 'pending');
}

/** Pending invitations to a person's verified address, for the sign-in that offers them. */
export async function pendingInvitationsFor(deps: Pick<MembersDeps, 'invitations' | 'clock'>, input: { email: string }): Promise<Invitation[]> {
  const now = deps.clock.nowUs();
  return (await deps.invitations.listByEmail(normaliseEmail(input.email))).filter((i) => invitationState(i, now) === 'pending');
}

export async function revokeInvitation(deps: MembersDeps, input: { orgId: string; invitationId: string } & Acting): Promise<Invitation> {
  const who = await authorize(deps, input.orgId, input.by, 'invitations.manage');
  const inv = await deps.invitations.get(input.orgId, input.invitationId);
  if (!inv) throw notFound('Invitation not found');
  await checkRoleChange(deps, input.orgId, { actor: who.authority, current: undefined, next: inv.role });
  const state = invitationState(inv, deps.clock.nowUs());
  if (state === 'accepted') throw conflict('This invitation was accepted already');
  if (state !== 'revoked') {
    await recordAudit(
      deps,
      { actor: who.actor, origin: input.origin },
      {
        orgId: input.orgId,
        action: 'invitation.revoke',
        resource: { type: 'invitation', id: inv.id },
        before: { email: inv.email, role: inv.role },
      },
    );
  }
  const revoked = (await deps.invitations.revoke(inv.orgId, inv.id, deps.clock.nowUs())) ?? inv;
  await deps.invitations.retire(revoked);
  return revoked;
}

const unusable = (inv: Invitation, nowUs: number): DomainError => {
  const state = invitationState(inv, nowUs);
  if (state === 'expired') return new DomainError('expired', 'This invitation has expired: ask for a new one');
  return conflict(state === 'revoked' ? 'This invitation was revoked' : 'This invitation was used already');
};

/** Accepts an invitation for the signed-in person it was sent to; the membership it gives. */
export async function acceptInvitation(deps: MembersDeps, input: { token: string; identity: VerifiedIdentity; origin: RequestOrigin }): Promise<Member> {
  if (!input.identity.emailVerified) throw forbidden('Your e-mail address is not verified');
  const inv = await deps.invitations.findByTokenHash(hashCredential(input.token));
  if (!inv) throw notFound('Invitation not found');
  const email = normaliseEmail(input.identity.email);
  if (inv.email !== email) throw forbidden('This invitation is for another e-mail address');
  const userKey = userKeyOf(input.identity);
  const now = deps.clock.nowUs();
  const retry = inv.acceptedBy === userKey;
  if (!retry && invitationState(inv, now) !== 'pending') throw unusable(inv, now);
  const existing = await deps.members.get(inv.orgId, userKey);
  if (existing && !retry) throw conflict('You are a member of this organisation already');
  const accepted = retry ? inv : await deps.invitations.accept(inv.orgId, inv.id, userKey, now);
  if (!accepted) throw unusable((await deps.invitations.get(inv.orgId, inv.id)) ?? inv, now);
  const member: Member = { orgId: inv.orgId, userKey, email, role: inv.role, joinedAtUs: accepted.acceptedAtUs ?? now };
  if (!existing) {
    await recordAudit(
      deps,
      { actor: { kind: 'member', id: userKey, email }, origin: input.origin },
      {
        orgId: inv.orgId,
        action: 'invitation.accept',
        resource: { type: 'member', id: userKey },
        after: { email, role: member.role, invitationId: inv.id },
      },
    );
    await deps.members.put(member);
  }
  if (member.role === 'owner') await deps.members.addOwner(inv.orgId, userKey);
  await deps.invitations.retire(accepted);
  return existing ?? member;
}
