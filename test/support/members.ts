/** The member, invitation and audit use cases' deps over the production DynamoDB adapters (as the wiring builds them), and people to sign in. */
import { CryptoIds } from '../../functions/kernel/adapters/crypto-ids';
import { DynamoOrgStore } from '../../functions/tenancy/adapters/dynamo-org-store';
import type { ActorRef } from '../../functions/tenancy/app/act-on-org';
import type { MembersDeps } from '../../functions/tenancy/app/members-ports';
import { signIn } from '../../functions/tenancy/app/sign-in-person';
import { userKeyOf, type VerifiedIdentity } from '../../functions/tenancy/domain/members';
import type { Role } from '../../functions/tenancy/domain/roles';
import { buildMembersPorts } from '../../functions/tenancy/wiring/members-wiring';
import { TestClock } from './clock';
import type { TestTable } from './dynamo';

export function membersDeps(t: TestTable, clock = new TestClock('2026-11-01T00:00:00Z')): MembersDeps & { clock: TestClock } {
  return { clock, ids: new CryptoIds(), orgs: new DynamoOrgStore(t.db, t.table), ...buildMembersPorts(t.db, t.table) };
}

/** The member `id` acting. */
export const by = (id: VerifiedIdentity): ActorRef => ({ kind: 'member', userKey: userKeyOf(id) });

export const ORIGIN = { ip: '203.0.113.7', userAgent: 'vitest' } as const;

/** A person of the test issuer, with a verified address `<name>@example.com`. */
export function person(name: string, issuer = 'https://idp.example.com'): VerifiedIdentity {
  return { issuer, subject: `sub-${name}`, email: `${name}@example.com`, emailVerified: true };
}

/** A fresh org created by `owner`'s first sign-in, with the others put in as members of the given roles. */
export async function orgWith(deps: MembersDeps, owner: VerifiedIdentity, others: [VerifiedIdentity, Role][] = []): Promise<string> {
  const { createdOrg } = await signIn(deps, { identity: owner, origin: ORIGIN });
  if (!createdOrg) throw new Error(`${owner.email} had signed in before`);
  for (const [id, role] of others) {
    await deps.members.put({ orgId: createdOrg.id, userKey: userKeyOf(id), email: id.email, role, joinedAtUs: 1 });
    if (role === 'owner') await deps.members.addOwner(createdOrg.id, userKeyOf(id));
  }
  return createdOrg.id;
}
