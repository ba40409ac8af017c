/**
 * Role changes and removals over the production DynamoDB adapters, as random sequences by random
 * members (fast-check, fixed seed): each answer is the permission table's and the role-change rules'
 * applied to the org as stored, the org keeps an owner, and the owner guard holds exactly the owners.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeMemberRole, removeMember } from '../../functions/tenancy/app/manage-members';
import type { MembersDeps } from '../../functions/tenancy/app/members-ports';
import { userKeyOf, type VerifiedIdentity } from '../../functions/tenancy/domain/members';
import { can, ROLES, roleChangeRefusal, type Role } from '../../functions/tenancy/domain/roles';
import { outcome } from '../support/domain-error';
import { startTestTable, type TestTable } from '../support/dynamo';
import { by, membersDeps, ORIGIN, orgWith, person } from '../support/members';

describe('role changes over the stores (property)', () => {
  let t: TestTable;
  let deps: MembersDeps;
  beforeAll(async () => {
    t = await startTestTable();
    deps = membersDeps(t);
  });
  afterAll(() => t.stop());
  const orgOf = (owner: VerifiedIdentity, others: [VerifiedIdentity, Role][] = []) => orgWith(deps, owner, others);

  it('keeps the stored org within the rules over random sequences of changes by random members (seeded)', async () => {
    let run = 0;
    const op = fc.record({ actor: fc.nat(3), target: fc.nat(3), next: fc.option(fc.constantFrom(...ROLES), { nil: undefined }) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...ROLES), { minLength: 3, maxLength: 3 }),
        fc.array(op, { minLength: 1, maxLength: 10 }),
        async (roles, ops) => {
          run++;
          const people = ['p0', 'p1', 'p2', 'p3'].map((n) => person(`prop${run}-${n}`));
          const orgId = await orgOf(
            people[0]!,
            roles.map((r, i) => [people[i + 1]!, r] as [VerifiedIdentity, Role]),
          );
          for (const o of ops) {
            const before = new Map((await deps.members.listByOrg(orgId)).map((m) => [m.userKey, m.role]));
            const actorRole = before.get(userKeyOf(people[o.actor]!));
            const target = userKeyOf(people[o.target]!);
            const input = { orgId, userKey: target, by: by(people[o.actor]!), origin: ORIGIN };
            const result = await outcome(o.next === undefined ? removeMember(deps, input) : changeMemberRole(deps, { ...input, role: o.next }));
            const owners = [...before.values()].filter((r) => r === 'owner').length;
            // The answer is the domain rule's, applied to the org as stored: a stranger learns nothing,
            // and setting the role a member has already changes nothing.
            const current = before.get(target);
            const expected =
              actorRole === undefined
                ? 'not_found'
                : !can(actorRole, 'members.manage')
                  ? 'refused'
                  : current === undefined
                    ? 'not_found'
                    : current === o.next || roleChangeRefusal({ actor: actorRole, current, next: o.next, owners }) === undefined
                      ? 'ok'
                      : 'refused';
            const seen = result === 'forbidden' || result === 'conflict' ? 'refused' : result;
            expect(seen, JSON.stringify({ o, actorRole, current, owners })).toBe(expected);
            const after = await deps.members.listByOrg(orgId);
            const storedOwners = after.filter((m) => m.role === 'owner').map((m) => m.userKey);
            expect(storedOwners.length).toBeGreaterThanOrEqual(1);
            expect([...(await deps.members.owners(orgId))].sort()).toEqual([...storedOwners].sort());
          }
        },
      ),
      { seed: 20261128, numRuns: 15 },
    );
  });
});
