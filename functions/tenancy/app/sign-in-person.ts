/**
 * A person signs in. The first sign-in of someone with no membership and no pending invitation
 * creates an org on the free plan with them as its owner; later sign-ins never do. The first
 * sign-in is claimed once (a conditional write that also reserves the org's id), so two tabs signing
 * in at once create one org, and a crash part-way is finished by the next sign-in.
 */
import { forbidden, recordAudit, type RequestOrigin } from './act-on-org';
import { createOrg } from './create-org';
import { pendingInvitationsFor } from './manage-invitations';
import type { MembersDeps } from './members-ports';
import type { Invitation } from '../domain/invitations';
import { normaliseEmail, personalOrgName, userKeyOf, type Member, type Person, type VerifiedIdentity } from '../domain/members';
import type { Org } from '../domain/org';

export interface SignInResult {
  readonly person: Person;
  /** The person's orgs, with their role in each. */
  readonly memberships: Member[];
  /** Pending invitations to the person's address, to accept or leave. */
  readonly invitations: Invitation[];
  /** The org this sign-in created, on a first sign-in that created one. */
  readonly createdOrg?: Org;
}

export async function signIn(deps: MembersDeps, input: { identity: VerifiedIdentity; origin: RequestOrigin }): Promise<SignInResult> {
  const { identity } = input;
  if (!identity.emailVerified) throw forbidden('Your e-mail address is not verified');
  const email = normaliseEmail(identity.email);
  const userKey = userKeyOf(identity);
  let person = await deps.persons.get(userKey);
  if (!person) {
    const [memberships, invitations] = await Promise.all([deps.members.listByPerson(userKey), pendingInvitationsFor(deps, { email })]);
    const first = memberships.length === 0 && invitations.length === 0;
    const claim: Person = {
      userKey,
      issuer: identity.issuer,
      subject: identity.subject,
      email,
      firstSignInAtUs: deps.clock.nowUs(),
      ...(first ? { personalOrgId: deps.ids.uuid() } : {}),
      settled: !first,
    };
    person = (await deps.persons.claim(claim)) ? claim : await deps.persons.get(userKey);
    if (!person) throw new Error('a claimed person could not be read back');
  }
  let createdOrg: Org | undefined;
  if (!person.settled && person.personalOrgId !== undefined) {
    createdOrg = await createPersonalOrg(deps, person, input.origin);
    await deps.persons.settle(userKey);
    person = { ...person, settled: true };
  }
  const [memberships, invitations] = await Promise.all([deps.members.listByPerson(userKey), pendingInvitationsFor(deps, { email })]);
  return { person, memberships, invitations, ...(createdOrg ? { createdOrg } : {}) };
}

/** Each step is idempotent: the org under the reserved id, the record of it, the owner's membership, the owner guard. */
async function createPersonalOrg(deps: MembersDeps, person: Person, origin: RequestOrigin): Promise<Org> {
  const orgId = person.personalOrgId as string;
  const existing = await deps.orgs.get(orgId);
  const actor = { kind: 'member' as const, id: person.userKey, email: person.email };
  if (!existing) await recordAudit(deps, { actor, origin }, { orgId, action: 'org.create', resource: { type: 'org', id: orgId } });
  const org =
    existing ??
    (await createOrg(deps, { id: orgId, name: personalOrgName(person.email), plan: 'free' }).catch(async (err: unknown) => {
      // Another sign-in of the same person created it a moment ago: its org is this one.
      const raced = await deps.orgs.get(orgId);
      if (!raced) throw err;
      return raced;
    }));
  await deps.members.put({ orgId, userKey: person.userKey, email: person.email, role: 'owner', joinedAtUs: org.createdAtUs });
  await deps.members.addOwner(orgId, person.userKey);
  return org;
}
