/**
 * The one permission table (functions/tenancy/domain/roles.ts) against the console's roles table, and
 * the rules of role changes over random sequences of changes by random actors (fast-check, fixed
 * seed): an org never loses its last owner, only owners and operators touch the owner role, and
 * developers and viewers change nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { can, PERMISSION_NAMES, PERMISSIONS, permissionsOf, ROLES, roleChangeRefusal, type Authority, type Role } from '../../functions/tenancy/domain/roles';

const who = (permission: keyof typeof PERMISSIONS) => ROLES.filter((r) => can(r, permission));

describe('the permission table', () => {
  it('says what the console roles table says, row by row', () => {
    const ALL = ['owner', 'admin', 'developer', 'viewer'];
    expect(who('members.manage')).toEqual(['owner', 'admin']);
    expect(who('invitations.manage')).toEqual(['owner', 'admin']);
    expect(who('keys.manage')).toEqual(['owner', 'admin', 'developer']);
    expect(who('keys.read')).toEqual(ALL);
    expect(who('apps.manage')).toEqual(['owner', 'admin', 'developer']);
    expect(who('apps.read')).toEqual(ALL);
    expect(who('org.settings.manage')).toEqual(['owner', 'admin']);
    expect(who('org.delete')).toEqual(['owner']);
    expect(who('transcripts.read')).toEqual(['owner', 'admin', 'developer']);
    expect(who('transcripts.metadata')).toEqual(ALL);
    expect(who('conversations.delete')).toEqual(['owner', 'admin']);
    expect(who('usage.read')).toEqual(ALL);
    expect(who('plan.manage')).toEqual(['owner']);
    expect(who('plan.read')).toEqual(['owner', 'admin']);
    expect(who('catalog.manage')).toEqual(['owner', 'admin', 'developer']);
    expect(who('catalog.read')).toEqual(ALL);
    expect(who('orders.read')).toEqual(ALL);
    expect(who('orders.manage')).toEqual(['owner', 'admin']);
    expect(who('exports.manage')).toEqual(['owner', 'admin']);
    expect(who('audit.read')).toEqual(['owner', 'admin']);
  });

  it('gives every permission to some role and each role what the next role down has, and more', () => {
    for (const p of PERMISSION_NAMES) expect(who(p).length, p).toBeGreaterThan(0);
    for (let i = 1; i < ROLES.length; i++) {
      const above = new Set(permissionsOf(ROLES[i - 1]!));
      for (const p of permissionsOf(ROLES[i]!)) expect(above.has(p), `${ROLES[i - 1]} lacks ${p}`).toBe(true);
    }
    expect(permissionsOf('owner')).toEqual(PERMISSION_NAMES);
  });

  it('answers can() from the table for every role and permission (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ROLES), fc.constantFrom(...PERMISSION_NAMES), (role, p) => {
        expect(can(role, p)).toBe((PERMISSIONS[p] as readonly Role[]).includes(role));
        expect(permissionsOf(role).includes(p)).toBe(can(role, p));
      }),
      { seed: 40, numRuns: 200 },
    );
  });
});

describe('role changes', () => {
  it('refuses what the rules refuse, one case each', () => {
    expect(roleChangeRefusal({ actor: 'developer', current: 'viewer', next: 'developer', owners: 2 })).toBe('not_permitted');
    expect(roleChangeRefusal({ actor: 'viewer', current: undefined, next: 'viewer', owners: 2 })).toBe('not_permitted');
    expect(roleChangeRefusal({ actor: 'admin', current: 'admin', next: 'owner', owners: 2 })).toBe('owner_only');
    expect(roleChangeRefusal({ actor: 'admin', current: 'owner', next: 'admin', owners: 3 })).toBe('owner_only');
    expect(roleChangeRefusal({ actor: 'admin', current: 'owner', next: undefined, owners: 3 })).toBe('owner_only');
    expect(roleChangeRefusal({ actor: 'admin', current: undefined, next: 'owner', owners: 1 })).toBe('owner_only');
    expect(roleChangeRefusal({ actor: 'owner', current: 'owner', next: 'viewer', owners: 1 })).toBe('last_owner');
    expect(roleChangeRefusal({ actor: 'operator', current: 'owner', next: undefined, owners: 1 })).toBe('last_owner');
    expect(roleChangeRefusal({ actor: 'owner', current: 'owner', next: 'viewer', owners: 2 })).toBeUndefined();
    expect(roleChangeRefusal({ actor: 'admin', current: 'developer', next: 'admin', owners: 1 })).toBeUndefined();
    expect(roleChangeRefusal({ actor: 'operator', current: 'viewer', next: 'owner', owners: 1 })).toBeUndefined();
  });

  const change = fc.record({
    actor: fc.oneof(fc.nat(5), fc.constant('operator' as const)),
    target: fc.nat(5),
    next: fc.option(fc.constantFrom(...ROLES), { nil: undefined }),
  });

  it('keeps an owner, and keeps the owner role to owners and operators, over any sequence (seeded)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ROLES), { minLength: 5, maxLength: 5 }), fc.array(change, { maxLength: 40 }), (others, changes) => {
        // Six people, the first the org's owner; the others start with random roles.
        const org = new Map<number, Role>([[0, 'owner'], ...others.map((r, i) => [i + 1, r] as [number, Role])]);
        for (const c of changes) {
          const actor: Authority | undefined = c.actor === 'operator' ? 'operator' : org.get(c.actor);
          if (actor === undefined) continue;
          const current = org.get(c.target);
          const owners = [...org.values()].filter((r) => r === 'owner').length;
          const refusal = roleChangeRefusal({ actor, current, next: c.next, owners });
          if (refusal === undefined) {
            expect(actor === 'operator' || actor === 'owner' || actor === 'admin').toBe(true);
            if (current === 'owner' || c.next === 'owner') expect(['operator', 'owner']).toContain(actor);
            if (c.next === undefined) org.delete(c.target);
            else org.set(c.target, c.next);
          } else {
            if (actor === 'developer' || actor === 'viewer') expect(refusal).toBe('not_permitted');
            if (refusal === 'last_owner') expect(owners).toBe(1);
          }
          expect([...org.values()].filter((r) => r === 'owner').length).toBeGreaterThanOrEqual(1);
        }
      }),
      { seed: 20261128, numRuns: 500 },
    );
  });
});
