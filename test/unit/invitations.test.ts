/**
 * Invitations over the production DynamoDB adapters: the token is shown once and stored as a hash,
 * works once, for the invited verified address only, until it expires or is revoked; an admin never
 * invites an owner; a sign-in with a pending invitation creates no org and offers it instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInvitation, inviteMember, listPendingInvitations, revokeInvitation } from '../../functions/tenancy/app/manage-invitations';
import { listMembers } from '../../functions/tenancy/app/manage-members';
import { signIn } from '../../functions/tenancy/app/sign-in-person';
import { hashCredential } from '../../functions/tenancy/domain/credentials';
import { INVITATION_TTL_DAYS } from '../../functions/tenancy/domain/invitations';
import { userKeyOf } from '../../functions/tenancy/domain/members';
import type { TestClock } from '../support/clock';
import { outcome } from '../support/domain-error';
import { startTestTable, type TestTable } from '../support/dynamo';
import { by, membersDeps, ORIGIN, person } from '../support/members';

describe('invitations', () => {
  let t: TestTable;
  let deps: ReturnType<typeof membersDeps>;
  let clock: TestClock;
  const owner = person('inv-owner');
  const admin = person('inv-admin');
  const dev = person('inv-dev');
  let orgId: string;
  beforeAll(async () => {
    t = await startTestTable();
    deps = membersDeps(t);
    clock = deps.clock;
    orgId = (await signIn(deps, { identity: owner, origin: ORIGIN })).createdOrg!.id;
    await deps.members.put({ orgId, userKey: userKeyOf(admin), email: admin.email, role: 'admin', joinedAtUs: 1 });
    await deps.members.put({ orgId, userKey: userKeyOf(dev), email: dev.email, role: 'developer', joinedAtUs: 1 });
  });
  afterAll(() => t.stop());

  it('invites with a token shown once, and the invited person accepts it once', async () => {
    const { token, invitation } = await inviteMember(deps, { orgId, email: ' Newbie@Example.com ', role: 'developer', by: by(admin), origin: ORIGIN });
    expect(token).toMatch(/^inv_[A-Za-z0-9]{40}$/);
    expect(invitation).toMatchObject({ email: 'newbie@example.com', role: 'developer', tokenHash: hashCredential(token), invitedBy: userKeyOf(admin) });
    expect(invitation.expiresAtUs - invitation.createdAtUs).toBe(INVITATION_TTL_DAYS * 86_400_000_000);
    expect(JSON.stringify(await deps.invitations.get(orgId, invitation.id))).not.toContain(token);
    expect((await listPendingInvitations(deps, { orgId, by: by(owner) })).map((i) => i.id)).toContain(invitation.id);

    // A sign-in with a pending invitation creates no org: it offers the invitation.
    const newbie = person('newbie');
    const first = await signIn(deps, { identity: newbie, origin: ORIGIN });
    expect(first.createdOrg).toBeUndefined();
    expect(first.invitations.map((i) => i.id)).toEqual([invitation.id]);

    const member = await acceptInvitation(deps, { token, identity: newbie, origin: ORIGIN });
    expect(member).toMatchObject({ orgId, userKey: userKeyOf(newbie), email: 'newbie@example.com', role: 'developer' });
    expect((await listMembers(deps, { orgId, by: by(dev) })).map((m) => m.email)).toContain('newbie@example.com');
    expect((await listPendingInvitations(deps, { orgId, by: by(owner) })).map((i) => i.id)).not.toContain(invitation.id);
    // Used: the token finds nothing any more, for anyone.
    expect(await outcome(acceptInvitation(deps, { token, identity: newbie, origin: ORIGIN }))).toBe('not_found');
    const audit = await deps.audit.list(orgId, { resourceType: 'invitation' }, 10);
    expect(audit.records.map((r) => r.action)).toContain('invitation.create');
    expect(JSON.stringify(audit.records)).not.toContain(invitation.tokenHash);
    expect((await deps.audit.list(orgId, { action: 'invitation.accept' }, 10)).records.map((r) => r.actor.id)).toEqual([userKeyOf(newbie)]);
  });

  it('accepts only for the invited, verified address', async () => {
    const { token } = await inviteMember(deps, { orgId, email: 'only@example.com', role: 'viewer', by: by(owner), origin: ORIGIN });
    expect(await outcome(acceptInvitation(deps, { token, identity: person('someone'), origin: ORIGIN }))).toBe('forbidden');
    expect(await outcome(acceptInvitation(deps, { token, identity: { ...person('only'), emailVerified: false }, origin: ORIGIN }))).toBe('forbidden');
    expect(await outcome(acceptInvitation(deps, { token: 'inv_nope', identity: person('only'), origin: ORIGIN }))).toBe('not_found');
    expect(await outcome(acceptInvitation(deps, { token, identity: { ...person('only'), email: 'ONLY@example.com' }, origin: ORIGIN }))).toBe('ok');
  });

  it('lets one of two people racing with the same token in, once', async () => {
    const { token } = await inviteMember(deps, { orgId, email: 'twin@example.com', role: 'viewer', by: by(owner), origin: ORIGIN });
    const a = { ...person('twin'), subject: 'twin-a' };
    const b = { ...person('twin'), subject: 'twin-b' };
    const results = await Promise.all([a, b].map((identity) => outcome(acceptInvitation(deps, { token, identity, origin: ORIGIN }))));
    expect(results.sort()).toEqual(['conflict', 'ok']);
    const twins = (await deps.members.listByOrg(orgId)).filter((m) => m.email === 'twin@example.com');
    expect(twins).toHaveLength(1);
  });

  it('refuses an expired invitation, and a revoked one', async () => {
    const expiring = await inviteMember(deps, { orgId, email: 'late@example.com', role: 'viewer', ttlDays: 1, by: by(owner), origin: ORIGIN });
    clock.advance(86_400_000 + 1);
    expect(await outcome(acceptInvitation(deps, { token: expiring.token, identity: person('late'), origin: ORIGIN }))).toBe('expired');
    expect((await listPendingInvitations(deps, { orgId, by: by(owner) })).map((i) => i.id)).not.toContain(expiring.invitation.id);

    const revoked = await inviteMember(deps, { orgId, email: 'gone@example.com', role: 'developer', by: by(admin), origin: ORIGIN });
    expect(await outcome(revokeInvitation(deps, { orgId, invitationId: revoked.invitation.id, by: by(dev), origin: ORIGIN }))).toBe('forbidden');
    const first = await revokeInvitation(deps, { orgId, invitationId: revoked.invitation.id, by: by(admin), origin: ORIGIN });
    const second = await revokeInvitation(deps, { orgId, invitationId: revoked.invitation.id, by: by(owner), origin: ORIGIN });
    expect(second.revokedAtUs).toBe(first.revokedAtUs);
    expect(await outcome(acceptInvitation(deps, { token: revoked.token, identity: person('gone'), origin: ORIGIN }))).toBe('not_found');
    expect((await deps.audit.list(orgId, { action: 'invitation.revoke' }, 10)).records).toHaveLength(1);
  });

  it('keeps the owner role to owners: an admin neither invites nor revokes an owner', async () => {
    expect(await outcome(inviteMember(deps, { orgId, email: 'boss@example.com', role: 'owner', by: by(admin), origin: ORIGIN }))).toBe('forbidden');
    expect(await outcome(inviteMember(deps, { orgId, email: 'x@example.com', role: 'viewer', by: by(dev), origin: ORIGIN }))).toBe('forbidden');
    const { token, invitation } = await inviteMember(deps, { orgId, email: 'boss@example.com', role: 'owner', by: by(owner), origin: ORIGIN });
    expect(await outcome(revokeInvitation(deps, { orgId, invitationId: invitation.id, by: by(admin), origin: ORIGIN }))).toBe('forbidden');
    const boss = person('boss');
    await acceptInvitation(deps, { token, identity: boss, origin: ORIGIN });
    expect(await deps.members.owners(orgId)).toContain(userKeyOf(boss));
  });

  it('refuses a bad address or lifetime, and an address that is a member already', async () => {
    const invite = (email: string, ttlDays?: number) =>
      outcome(inviteMember(deps, { orgId, email, role: 'viewer', ...(ttlDays !== undefined ? { ttlDays } : {}), by: by(owner), origin: ORIGIN }));
    expect(await invite('not an address')).toBe('bad_request');
    expect(await invite('ok@example.com', 0)).toBe('bad_request');
    expect(await invite('ok@example.com', 31)).toBe('bad_request');
    expect(await invite(dev.email)).toBe('conflict');
  });

  it('converges when an acceptance was cut short after the invitation was marked', async () => {
    const { token, invitation } = await inviteMember(deps, { orgId, email: 'crash@example.com', role: 'admin', by: by(owner), origin: ORIGIN });
    const crash = person('crash');
    await deps.invitations.accept(orgId, invitation.id, userKeyOf(crash), clock.nowUs());
    expect(await deps.members.get(orgId, userKeyOf(crash))).toBeUndefined();
    const member = await acceptInvitation(deps, { token, identity: crash, origin: ORIGIN });
    expect(member.role).toBe('admin');
    expect((await deps.members.get(orgId, userKeyOf(crash)))?.role).toBe('admin');
    expect(await outcome(acceptInvitation(deps, { token, identity: crash, origin: ORIGIN }))).toBe('not_found');
  });
});
