/**
 * Tenancy's console routes over HTTP as builders use them: the org and its plan, members and their
 * roles (never the last owner), invitations from link to membership, apps and their settings, and the
 * audit log that records each change, the admin API's included. Who may call what is the role table's
 * (console-role-table.test.ts); this file is about what each call does.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { userKeyOf } from '../../functions/tenancy/domain/members';
import { permissionsOf } from '../../functions/tenancy/domain/roles';
import { consoleSessionFor, demoMember, outsider } from '../support/console-sessions';
import { type TestPlatform, usePlatform } from '../support/platform';

describe('console: org, members, invitations, apps, audit log', () => {
  let p: TestPlatform;
  usePlatform({ consoleSignIn: { kind: 'embedded', port: 0 }, seed: true }, (x) => {
    p = x;
  });
  const org = () => `/console/v1/orgs/${p.demo!.orgId}`;
  const issuer = () => p.consoleSignIn!.settings.issuer.issuer;

  it('shows the org with the caller’s role and permissions, and the plan to those who may see it', async () => {
    const dev = await demoMember(p, 'developer');
    const res = await dev.call('GET', org());
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: p.demo!.orgId, plan: 'paid', role: 'developer', permissions: permissionsOf('developer') });
    const plan = await (await demoMember(p, 'admin')).call('GET', `${org()}/plan`);
    expect(plan.status).toBe(200);
    expect(plan.body.data).toEqual({ plan: 'paid', creditsUsd: expect.toBeOneOf([null, expect.stringMatching(/^\d+\.\d+$/)]) });
  });

  it('lists members; an admin never makes an owner; the last owner stays; every change is in the audit log', async () => {
    const owner = await demoMember(p, 'owner');
    const admin = await demoMember(p, 'admin');
    const members = await owner.call('GET', `${org()}/members`);
    expect(members.body.data.map((m: { role: string }) => m.role).sort()).toEqual(['admin', 'developer', 'owner', 'viewer']);
    const viewerId = userKeyOf({ issuer: issuer(), subject: 'demo-viewer' });
    const promote = await admin.call('PATCH', `${org()}/members/${viewerId}`, { body: { role: 'owner' } });
    expect(promote.status).toBe(403);
    const lastOwner = await owner.call('PATCH', `${org()}/members/${owner.userKey}`, { body: { role: 'admin' } });
    expect(lastOwner.status).toBe(409);
    const changed = await admin.call('PATCH', `${org()}/members/${viewerId}`, { body: { role: 'developer' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id: viewerId, role: 'developer' });
    expect((await admin.call('PATCH', `${org()}/members/${viewerId}`, { body: { role: 'viewer' } })).status).toBe(200);
    const log = await owner.call('GET', `${org()}/audit-log?resourceType=member&limit=5`);
    expect(log.status).toBe(200);
    expect(log.body.data[0]).toMatchObject({
      actor: { kind: 'member', id: admin.userKey, email: 'admin@demo.local' },
      resource: { type: 'member', id: viewerId },
    });
    expect((await owner.call('GET', `${org()}/audit-log?bogus=1`)).status).toBe(400);
    for (const id of [`usr_${'x'.repeat(43)}`, randomUUID()]) expect((await owner.call('DELETE', `${org()}/members/${id}`)).status, id).toBe(404);
  });

  it('invites by e-mail: the link is shown once, the invitee joins by signing in with that address, the org sees them', async () => {
    const admin = await demoMember(p, 'admin');
    const created = await admin.call('POST', `${org()}/invitations`, { body: { email: 'New.Hire@Example.com', role: 'developer' } });
    expect(created.status).toBe(201);
    const { token, link, id } = created.body.data;
    expect(link).toBe(`${p.baseUrl}/console/invitations#token=${token}`);
    const pending = await admin.call('GET', `${org()}/invitations`);
    expect(pending.body.data.map((i: { id: string }) => i.id)).toContain(id);
    expect(JSON.stringify(pending.body)).not.toContain(token);
    const stranger = await consoleSessionFor(p, { issuer: issuer(), subject: 'someone-else', email: 'someone@example.com' });
    expect((await stranger.call('POST', '/console/v1/invitations/accept', { body: { token } })).status).toBe(403);
    const invitee = await consoleSessionFor(p, { issuer: issuer(), subject: 'new-hire', email: 'new.hire@example.com' });
    const accepted = await invitee.call('POST', '/console/v1/invitations/accept', { body: { token } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ orgId: p.demo!.orgId, role: 'developer', email: 'new.hire@example.com' });
    expect((await invitee.call('GET', `${org()}/apps`)).status).toBe(200);
    const revoked = await admin.call('POST', `${org()}/invitations`, { body: { email: 'late@example.com', role: 'viewer' } });
    expect((await admin.call('DELETE', `${org()}/invitations/${revoked.body.data.id}`)).status).toBe(200);
    expect((await admin.call('POST', `${org()}/invitations`, { body: { email: 'x@example.com', role: 'owner' } })).status).toBe(403);
  });

  it('creates, reads, changes and deletes an app; another org’s app is not found; header values are never shown', async () => {
    const dev = await demoMember(p, 'developer');
    const created = await dev.call('POST', `${org()}/apps`, {
      body: {
        name: 'Support bot',
        settings: { mcpConnections: [{ name: 'crm', url: 'https://crm.example.com/mcp', headers: { Authorization: 'Bearer s3cret' } }] },
      },
    });
    expect(created.status).toBe(201);
    const app = created.body.data;
    expect(app.settings.mcpConnections).toEqual([{ name: 'crm', url: 'https://crm.example.com/mcp', headerNames: ['Authorization'] }]);
    expect(JSON.stringify(created.body)).not.toContain('s3cret');
    const changed = await dev.call('PATCH', `${org()}/apps/${app.id}`, { body: { settings: { zeroDataRetention: true, monthlyUsageCapUsd: '25.00' } } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.settings).toMatchObject({ zeroDataRetention: true, monthlyUsageCapUsd: '25.00' });
    expect((await dev.call('PATCH', `${org()}/apps/${app.id}`, { body: { settings: { model: '' } } })).status).toBe(400);
    const list = await (await demoMember(p, 'viewer')).call('GET', `${org()}/apps`);
    expect(list.body.data.map((a: { id: string }) => a.id)).toContain(app.id);
    const theirs = await outsider(p, 'app-owner');
    const theirApp = await p.admin('POST', `/orgs/${theirs.orgId}/apps`, { name: 'Theirs' });
    for (const [method, body] of [['GET'], ['PATCH', { name: 'Mine now' }], ['DELETE']] as const) {
      const res = await dev.call(method, `${org()}/apps/${theirApp.body.data.id}`, body ? { body } : {});
      expect(res.status, method).toBe(404);
      expect(res.body).toEqual({ error: { code: 'not_found', message: 'App not found' } });
    }
    expect((await dev.call('DELETE', `${org()}/apps/${app.id}`)).status).toBe(204);
    expect((await dev.call('GET', `${org()}/apps/${app.id}`)).status).toBe(404);
    const log = await (await demoMember(p, 'owner')).call('GET', `${org()}/audit-log?resourceType=app`);
    const actions = log.body.data.filter((r: { resource: { id: string } }) => r.resource.id === app.id).map((r: { action: string }) => r.action);
    expect(actions).toEqual(['consoleAppDelete', 'consoleAppUpdate', 'consoleAppCreate']);
    expect(JSON.stringify(log.body)).not.toContain('s3cret');
  });

  it('renames the org from the console; the plan is the operator’s to change, through the admin API', async () => {
    const admin = await demoMember(p, 'admin');
    const renamed = await admin.call('PATCH', org(), { body: { name: 'Demo, renamed' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Demo, renamed', plan: 'paid' });
    expect((await admin.call('PATCH', org(), { body: { plan: 'free' } })).status).toBe(400);
    const theirs = await outsider(p, 'free-rider');
    const upgraded = await p.admin('PATCH', `/orgs/${theirs.orgId}`, { plan: 'free' });
    expect(upgraded.body.data).toMatchObject({ id: theirs.orgId, plan: 'free' });
    const log = await theirs.call('GET', `/console/v1/orgs/${theirs.orgId}/audit-log?action=adminOrgUpdate`);
    expect(log.body.data[0]).toMatchObject({ before: { plan: 'paid' }, after: { plan: 'free' }, actor: { kind: 'operator' } });
    expect((await p.admin('PATCH', `/orgs/${randomUUID()}`, { plan: 'paid' })).status).toBe(404);
    const unchanged = await p.admin('PATCH', `/orgs/${theirs.orgId}`, {});
    expect([unchanged.status, unchanged.body.data?.plan]).toEqual([200, 'free']);
  });

  it('records the admin API’s changes as the operator’s, in the org they changed', async () => {
    const updated = await p.admin('PATCH', `/apps/${p.demo!.appId}`, { settings: { imageInput: { enabled: true, maxPerConversation: 4 } } });
    expect(updated.status).toBe(200);
    const log = await (await demoMember(p, 'owner')).call('GET', `${org()}/audit-log?action=adminAppUpdate`);
    expect(log.body.data[0]).toMatchObject({ actor: { kind: 'operator', id: 'admin-token' }, resource: { type: 'app', id: p.demo!.appId } });
  });
});
