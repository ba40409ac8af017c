/**
 * The one permission table of the console: the API guards each call with `can`, and the UI reads the
 * same table to show or hide what a role may do (the server always decides). Roles live in the
 * platform's own data; the identity provider only authenticates.
 */

export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  /** The org's name and plan, as every member sees them. */
  'org.read': ['owner', 'admin', 'developer', 'viewer'],
  'org.settings.manage': ['owner', 'admin'],
  'org.delete': ['owner'],
  /** Teammates and their roles: every member sees who else is in the org. */
  'members.read': ['owner', 'admin', 'developer', 'viewer'],
  /** Change roles and remove members; an admin never touches an owner (`roleChangeRefusal`). */
  'members.manage': ['owner', 'admin'],
  /** Invite, list and revoke invitations; an admin never invites an owner. */
  'invitations.manage': ['owner', 'admin'],
  /** Keys by prefix and last use, never their secret. */
  'keys.read': ['owner', 'admin', 'developer', 'viewer'],
  /** Create, rotate and revoke keys. */
  'keys.manage': ['owner', 'admin', 'developer'],
  'apps.read': ['owner', 'admin', 'developer', 'viewer'],
  'apps.manage': ['owner', 'admin', 'developer'],
  'plan.read': ['owner', 'admin'],
  /** Change the plan and add credits. */
  'plan.manage': ['owner'],
  /** Sessions and consumers without their messages. */
  'transcripts.metadata': ['owner', 'admin', 'developer', 'viewer'],
  'transcripts.read': ['owner', 'admin', 'developer'],
  /** Delete sessions and consumers. */
  'conversations.delete': ['owner', 'admin'],
  'usage.read': ['owner', 'admin', 'developer', 'viewer'],
  'catalog.read': ['owner', 'admin', 'developer', 'viewer'],
  'catalog.manage': ['owner', 'admin', 'developer'],
  'orders.read': ['owner', 'admin', 'developer', 'viewer'],
  /**
   * Change an order after the sale (fulfil, deliver, refund, cancel: each is an event the buyer's agent
   * platform receives) and set the app's receiver of those events.
   */
  'orders.manage': ['owner', 'admin'],
  /** Bulk exports hold every transcript of the org. */
  'exports.manage': ['owner', 'admin'],
  'audit.read': ['owner', 'admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as readonly Permission[];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function can(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** What a role may do, in the table's order: the UI's view of the same table. */
export function permissionsOf(role: Role): Permission[] {
  return PERMISSION_NAMES.filter((p) => can(role, p));
}

/** Who acts on a membership: a member with a role, or an operator through the admin API (every power). */
export type Authority = Role | 'operator';

export type RoleChangeRefusal =
  /** The actor may not manage members at all. */
  | 'not_permitted'
  /** Only an owner (or an operator) grants, changes or removes the owner role. */
  | 'owner_only'
  /** The change would leave the org with no owner. */
  | 'last_owner';

/**
 * Whether `actor` may move a membership from `current` to `next`: `current` undefined is an invitation
 * or a new member, `next` undefined a removal. `owners` is how many owners the org has now.
 */
export function roleChangeRefusal(input: {
  readonly actor: Authority;
  readonly current: Role | undefined;
  readonly next: Role | undefined;
  readonly owners: number;
}): RoleChangeRefusal | undefined {
  const { actor, current, next, owners } = input;
  if (actor !== 'operator' && !can(actor, 'members.manage')) return 'not_permitted';
  if (actor !== 'operator' && actor !== 'owner' && (current === 'owner' || next === 'owner')) return 'owner_only';
  if (current === 'owner' && next !== 'owner' && owners <= 1) return 'last_owner';
  return undefined;
}
