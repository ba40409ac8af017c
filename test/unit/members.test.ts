/**
 * Members and roles over the production DynamoDB adapters (embedded DynamoDB): a first sign-in creates
 * a free org with its owner, later ones never do; roles change and members leave only as the
 * permission table and the role-change rules allow; an org never loses its last owner, not even to two
 * owners demoting each other at once, and a change cut short by a crash converges on retry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { changeMemberRole, listMembers, orgsOfPerson, removeMember } from '../../functions/tenancy/app/manage-members';
import type { MembersDeps } from '../../functions/tenancy/app/members-ports';
import { signIn } from '../../functions/tenancy/app/sign-in-person';
import { userKeyOf, type VerifiedIdentity } from '../../functions/tenancy/domain/members';
import type { Role } from '../../functions/tenancy/domain/roles';
import { outcome } from '../support/domain-error';
import { startTestTable, type TestTable } from '../support/dynamo';
import { by, membersDeps, ORIGIN, orgWith, person } from '../support/members';

describe('members and roles', () => {
  let t: TestTable;
  let deps: MembersDeps;
  beforeAll(async () => {
    t = await startTestTable();
    deps = membersDeps(t);
  });
  afterAll(() => t.stop());

  const orgOf = (owner: VerifiedIdentity, others: [VerifiedIdentity, Role][] = []) => orgWith(deps, owner, others);

  it('creates a free org with its owner at a first sign-in, and nothing at the next', async () => {
    const ann = person('ann');
    const first = await signIn(deps, { identity: ann, origin: ORIGIN });
    expect(first.createdOrg).toMatchObject({ plan: 'free', name: "ann's organisation" });
    expect(first.memberships).toEqual([
      { orgId: first.createdOrg!.id, userKey: userKeyOf(ann), email: 'ann@example.com', role: 'owner', joinedAtUs: first.createdOrg!.createdAtUs },
    ]);
    expect(first.person).toMatchObject({ settled: true, issuer: ann.issuer, subject: ann.subject });
    expect(await deps.members.owners(first.createdOrg!.id)).toEqual([userKeyOf(ann)]);
    const audit = await deps.audit.list(first.createdOrg!.id, {}, 10);
    expect(audit.records.map((r) => [r.action, r.actor.id, r.ip])).toEqual([['org.create', userKeyOf(ann), ORIGIN.ip]]);

    const again = await signIn(deps, { identity: { ...ann, email: 'ANN@example.com' }, origin: ORIGIN });
    expect(again.createdOrg).toBeUndefined();
    expect(again.memberships.map((m) => m.orgId)).toEqual([first.createdOrg!.id]);
  });

  it('creates one org when the same first sign-in runs twice at once', async () => {
    const bo = person('bo');
    const [a, b] = await Promise.all([signIn(deps, { identity: bo, origin: ORIGIN }), signIn(deps, { identity: bo, origin: ORIGIN })]);
    expect(a.memberships).toEqual(b.memberships);
    expect(a.memberships).toHaveLength(1);
    expect([a.createdOrg?.id, b.createdOrg?.id]).toContain(a.memberships[0]!.orgId);
    expect((await signIn(deps, { identity: bo, origin: ORIGIN })).memberships).toEqual(a.memberships);
  });

  it('finishes a first sign-in cut short after the claim, at the next sign-in', async () => {
    const cy = person('cy');
    const userKey = userKeyOf(cy);
    await deps.persons.claim({ userKey, issuer: cy.issuer, subject: cy.subject, email: cy.email, firstSignInAtUs: 1, personalOrgId: 'org-cy', settled: false });
    const result = await signIn(deps, { identity: cy, origin: ORIGIN });
    expect(result.createdOrg?.id).toBe('org-cy');
    expect(result.memberships.map((m) => [m.orgId, m.role])).toEqual([['org-cy', 'owner']]);
  });

  it('refuses a person whose address is not verified, and tells another issuer’s subject apart', async () => {
    expect(await outcome(signIn(deps, { identity: { ...person('dee'), emailVerified: false }, origin: ORIGIN }))).toBe('forbidden');
    expect(userKeyOf(person('dee'))).not.toBe(userKeyOf(person('dee', 'https://other.example.com')));
    expect(userKeyOf(person('dee'))).toMatch(/^usr_[A-Za-z0-9_-]{43}$/);
  });

  it('lets owners and admins change roles as the rules say, and records each change', async () => {
    const [own, adm, dev, vie] = ['own1', 'adm1', 'dev1', 'vie1'].map((n) => person(n)) as [
      VerifiedIdentity,
      VerifiedIdentity,
      VerifiedIdentity,
      VerifiedIdentity,
    ];
    const orgId = await orgOf(own, [
      [adm, 'admin'],
      [dev, 'developer'],
      [vie, 'viewer'],
    ]);
    const change = (actor: VerifiedIdentity, target: VerifiedIdentity, role: Role) =>
      outcome(changeMemberRole(deps, { orgId, userKey: userKeyOf(target), role, by: by(actor), origin: ORIGIN }));
    expect(await change(dev, vie, 'developer')).toBe('forbidden');
    expect(await change(vie, vie, 'admin')).toBe('forbidden');
    expect(await change(adm, vie, 'owner')).toBe('forbidden');
    expect(await change(adm, own, 'admin')).toBe('forbidden');
    expect(await change(adm, vie, 'developer')).toBe('ok');
    expect(await change(own, own, 'admin')).toBe('conflict');
    expect(await change(person('stranger'), vie, 'viewer')).toBe('not_found');
    expect(await change(own, person('stranger'), 'viewer')).toBe('not_found');
    expect(await change(own, adm, 'owner')).toBe('ok');
    expect(await deps.members.owners(orgId)).toEqual([userKeyOf(own), userKeyOf(adm)].sort());
    expect(await change(adm, own, 'viewer')).toBe('ok');
    expect(await deps.members.owners(orgId)).toEqual([userKeyOf(adm)]);
    const roles = Object.fromEntries((await listMembers(deps, { orgId, by: by(vie) })).map((m) => [m.email, m.role]));
    expect(roles).toEqual({ 'own1@example.com': 'viewer', 'adm1@example.com': 'owner', 'dev1@example.com': 'developer', 'vie1@example.com': 'developer' });
    const audit = await deps.audit.list(orgId, { action: 'member.role_change' }, 10);
    expect(audit.records.map((r) => [r.actor.email, r.resource.id, r.before, r.after])).toEqual([
      ['adm1@example.com', userKeyOf(own), { role: 'owner' }, { role: 'viewer' }],
      ['own1@example.com', userKeyOf(adm), { role: 'admin' }, { role: 'owner' }],
      ['adm1@example.com', userKeyOf(vie), { role: 'viewer' }, { role: 'developer' }],
    ]);
  });

  it('removes members, never the last owner, and an admin never an owner', async () => {
    const [own, own2, adm, dev] = ['own2', 'own2b', 'adm2', 'dev2'].map((n) => person(n)) as VerifiedIdentity[] as [
      VerifiedIdentity,
      VerifiedIdentity,
      VerifiedIdentity,
      VerifiedIdentity,
    ];
    const orgId = await orgOf(own, [
      [own2, 'owner'],
      [adm, 'admin'],
      [dev, 'developer'],
    ]);
    const remove = (actor: VerifiedIdentity, target: VerifiedIdentity) =>
      outcome(removeMember(deps, { orgId, userKey: userKeyOf(target), by: by(actor), origin: ORIGIN }));
    expect(await remove(dev, adm)).toBe('forbidden');
    expect(await remove(adm, own)).toBe('forbidden');
    expect(await remove(adm, dev)).toBe('ok');
    expect(await orgsOfPerson(deps, { userKey: userKeyOf(dev) })).toEqual([]);
    expect(await remove(adm, dev)).toBe('not_found');
    expect(await remove(own, own2)).toBe('ok');
    expect(await remove(own, own)).toBe('conflict');
    expect((await listMembers(deps, { orgId, by: by(own) })).map((m) => m.email).sort()).toEqual(['adm2@example.com', 'own2@example.com']);
    expect((await deps.audit.list(orgId, { action: 'member.remove' }, 10)).records.map((r) => r.before)).toEqual([
      { email: 'own2b@example.com', role: 'owner' },
      { email: 'dev2@example.com', role: 'developer' },
    ]);
  });

  it('lets exactly one of two owners demoting each other at once succeed', async () => {
    for (let round = 0; round < 5; round++) {
      const a = person(`race-a${round}`);
      const b = person(`race-b${round}`);
      const orgId = await orgOf(a, [[b, 'owner']]);
      const results = await Promise.all([
        outcome(changeMemberRole(deps, { orgId, userKey: userKeyOf(b), role: 'viewer', by: by(a), origin: ORIGIN })),
        outcome(removeMember(deps, { orgId, userKey: userKeyOf(a), by: by(b), origin: ORIGIN })),
      ]);
      const owners = (await deps.members.listByOrg(orgId)).filter((m) => m.role === 'owner');
      expect(owners.length, results.join()).toBeGreaterThanOrEqual(1);
      expect(results.filter((r) => r === 'ok').length, results.join()).toBe(1);
    }
  });

  it('never undoes a concurrent change: a stale write finds the role it read gone', async () => {
    const own = person('own4');
    const adm = person('adm4');
    const x = person('x4');
    const orgId = await orgOf(own, [
      [adm, 'admin'],
      [x, 'developer'],
    ]);
    expect(await deps.members.changeRole(orgId, userKeyOf(x), 'viewer', 'admin')).toBeUndefined();
    expect(await deps.members.remove(orgId, userKeyOf(x), 'viewer')).toBe(false);
    expect((await deps.members.get(orgId, userKeyOf(x)))?.role).toBe('developer');
    for (let round = 0; round < 5; round++) {
      const y = person(`y4-${round}`);
      await deps.members.put({ orgId, userKey: userKeyOf(y), email: y.email, role: 'developer', joinedAtUs: 1 });
      // An owner promotes y while an admin removes it: whichever lands second is refused or finds nothing.
      const results = await Promise.all([
        outcome(changeMemberRole(deps, { orgId, userKey: userKeyOf(y), role: 'owner', by: by(own), origin: ORIGIN })),
        outcome(removeMember(deps, { orgId, userKey: userKeyOf(y), by: by(adm), origin: ORIGIN })),
      ]);
      expect(results.filter((r) => r === 'ok').length, results.join()).toBe(1);
      const storedOwners = (await deps.members.listByOrg(orgId)).filter((m) => m.role === 'owner').map((m) => m.userKey);
      expect([...(await deps.members.owners(orgId))].sort()).toEqual(storedOwners.sort());
    }
    expect(await deps.members.remove(orgId, 'usr_never-a-member', 'viewer')).toBe(true);
  });

  it('converges when a change was cut short', async () => {
    const own = person('own3');
    const adm = person('adm3');
    const orgId = await orgOf(own, [[adm, 'admin']]);
    // A promotion that wrote the membership but not the owner guard: the same call again completes it.
    await deps.members.put({ orgId, userKey: userKeyOf(adm), email: adm.email, role: 'owner', joinedAtUs: 1 });
    expect(await deps.members.owners(orgId)).toEqual([userKeyOf(own)]);
    expect(await outcome(changeMemberRole(deps, { orgId, userKey: userKeyOf(adm), role: 'owner', by: by(own), origin: ORIGIN }))).toBe('ok');
    expect(await deps.members.owners(orgId)).toEqual([userKeyOf(own), userKeyOf(adm)].sort());
    // A demotion that left the guard but did not write the membership: the retry finishes it.
    expect(await deps.members.releaseOwner(orgId, userKeyOf(adm))).toBe('removed');
    expect(await outcome(changeMemberRole(deps, { orgId, userKey: userKeyOf(adm), role: 'developer', by: by(own), origin: ORIGIN }))).toBe('ok');
    expect((await deps.members.get(orgId, userKeyOf(adm)))?.role).toBe('developer');
    // A guard that is still empty protects the owner it is about to hold.
    await deps.members.put({ orgId: 'org-unguarded', userKey: 'usr_x', email: 'x@example.com', role: 'owner', joinedAtUs: 1 });
    expect(await deps.members.releaseOwner('org-unguarded', 'usr_x')).toBe('last');
  });

  it('lists a person’s orgs only where the membership exists, not from a dangling pointer', async () => {
    const pat = person('pat');
    const orgId = await orgOf(pat);
    await t.db.send(
      new PutCommand({
        TableName: t.table,
        Item: { pk: `PERSON#${userKeyOf(pat)}`, sk: 'MEMBER#org-gone', orgId: 'org-gone' },
      }),
    );
    expect((await orgsOfPerson(deps, { userKey: userKeyOf(pat) })).map((m) => m.orgId)).toEqual([orgId]);
  });
});
