/**
 * Every console API route, generated from the route table, as every role of the demo org, as a member
 * of another org, with no session, an expired or forged session cookie, no custom header and another
 * origin: each gets the answer the one permission table and the tenancy rules say. A route added
 * without a permission of the table (or without declaring its path ids) fails here.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes';
import { SIGNED_IN } from '../../functions/kernel/domain/console-api-base';
import type { RouteDef } from '../../functions/kernel/route-vocabulary';
import type { PathParam } from '../../functions/kernel/domain/ids';
import { can, PERMISSION_NAMES, ROLES, type Permission } from '../../functions/tenancy/domain/roles';
import { consoleSessionFor, demoMember, outsider, type ConsoleCaller } from '../support/console-sessions';
import { type TestPlatform, usePlatform } from '../support/platform';

const CONSOLE_API = ROUTES.filter((r) => r.auth === 'consoleSession');

/** A value of the shape a path parameter reads (a UUID, `usr_…`, `ful_<uuid>`) that names nothing that exists. */
function sampleOf(param: PathParam): string {
  const schema = param.schema as { format?: string; pattern?: string };
  const candidates = [randomUUID(), `usr_${'A'.repeat(43)}`];
  const prefix = schema.pattern?.match(/^\^([a-z]+_)/)?.[1];
  if (prefix) candidates.push(`${prefix}${randomUUID()}`);
  const value = candidates.find((c) => param.read(c) !== undefined);
  if (value === undefined) throw new Error(`no sample for ${JSON.stringify(schema)}`);
  return value;
}

function pathOf(route: RouteDef, orgId: string): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === 'orgId' ? orgId : encodeURIComponent(sampleOf(route.pathParams![name]!))));
}

const send = (caller: ConsoleCaller, route: RouteDef, orgId: string, init: { header?: boolean; headers?: Record<string, string> } = {}) =>
  caller.call(route.method, pathOf(route, orgId), { ...(route.body === 'json' ? { body: {} } : {}), ...init });

describe('the console role table', () => {
  it('has console routes, each with a permission of the one table and every path id declared', () => {
    expect(CONSOLE_API.length).toBeGreaterThanOrEqual(10);
    for (const route of CONSOLE_API) {
      expect([...PERMISSION_NAMES, SIGNED_IN], route.id).toContain(route.permission);
      for (const [, name] of route.path.matchAll(/\{([^}]+)\}/g)) expect(route.pathParams?.[name!], `${route.id} {${name}}`).toBeDefined();
      if (route.permission !== SIGNED_IN) expect(route.path, route.id).toContain('/orgs/{orgId}');
    }
  });

  let p: TestPlatform;
  usePlatform({ consoleSignIn: { kind: 'embedded', port: 0 }, seed: true }, (x) => {
    p = x;
  });
  const orgId = () => p.demo!.orgId;

  describe.each(ROLES.map((role) => [role]))('as the demo org’s %s', (role) => {
    it.each(CONSOLE_API.filter((r) => r.permission !== SIGNED_IN).map((r) => [r.id, r] as const))('%s', async (_, route) => {
      const res = await send(await demoMember(p, role), route, orgId());
      if (can(role, route.permission as Permission)) {
        expect([401, 403], `${route.id} ${res.status} ${res.text}`).not.toContain(res.status);
        expect(res.body?.error?.message, route.id).not.toBe('Org not found');
        expect(res.status, res.text).toBeLessThan(500);
      } else {
        expect(res.status, `${route.id} ${res.text}`).toBe(403);
        expect(res.body).toEqual({ error: { code: 'forbidden', message: `Your role (${role}) may not do this: ${route.permission}` } });
      }
    });
  });

  it.each(CONSOLE_API.filter((r) => r.permission !== SIGNED_IN).map((r) => [r.id, r] as const))(
    '%s: a member of another org gets 404, as for an org that does not exist',
    async (_, route) => {
      const stranger = await outsider(p, `stranger-${route.id}`);
      for (const target of [orgId(), randomUUID(), 'not-an-org']) {
        const res = await send(stranger, route, target);
        expect(res.status, `${route.id} ${target} ${res.text}`).toBe(404);
        expect(res.body).toEqual({ error: { code: 'not_found', message: 'Org not found' } });
      }
    },
  );

  it.each(CONSOLE_API.map((r) => [r.id, r] as const))('%s: no session, an expired or a forged one is 401', async (_, route) => {
    const owner = await demoMember(p, 'owner');
    const expired = await consoleSessionFor(p, { issuer: p.consoleSignIn!.settings.issuer.issuer, subject: 'demo-owner', email: 'owner@demo.local' }, -10);
    const unauthorized = { error: { code: 'unauthorized', message: 'Not signed in to the console' } };
    const headers = { 'X-Console-Request': '1' };
    const anonymous = await p.call(route.method, pathOf(route, orgId()), { headers, ...(route.body === 'json' ? { body: {} } : {}) });
    expect(anonymous.status, anonymous.text).toBe(401);
    expect(anonymous.body).toEqual(unauthorized);
    expect((await send(expired, route, orgId())).body).toEqual(unauthorized);
    const forgedId = owner.cookie.replace(/=(.)/, (_m, c: string) => `=${c === 'A' ? 'B' : 'A'}`);
    const forged = await p.call(route.method, pathOf(route, orgId()), {
      headers: { ...headers, Cookie: forgedId },
      ...(route.body === 'json' ? { body: {} } : {}),
    });
    expect(forged.status).toBe(401);
  });

  it.each(CONSOLE_API.filter((r) => r.method !== 'GET').map((r) => [r.id, r] as const))(
    '%s: without the custom header, or from another origin, is 403 before anything else',
    async (_, route) => {
      const owner = await demoMember(p, 'owner');
      const bare = await send(owner, route, orgId(), { header: false });
      expect(bare.status).toBe(403);
      expect(bare.body).toEqual({ error: { code: 'forbidden', message: 'Missing x-console-request header' } });
      const crossSite = await send(owner, route, orgId(), { headers: { Origin: 'https://evil.example' } });
      expect(crossSite.status).toBe(403);
      expect(crossSite.body).toEqual({ error: { code: 'forbidden', message: 'Cross-origin requests are not allowed' } });
    },
  );
});
