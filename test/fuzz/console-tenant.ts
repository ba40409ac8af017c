/**
 * A fuzz tenant's side of the console API: an owner's session (an owner may call every console route)
 * and spare resources for the console routes that change or delete one, so a base request never
 * removes what the others stand on (the owner's membership, the app and keys the chat and ACP routes
 * use). The members and sessions come from the platform process itself (platform-child.ts); the rest
 * through the console API, as the dashboard would create them.
 */
import type { Role } from '../../functions/tenancy/domain/roles';
import type { Tenant } from './credentials';
import type { Operation } from './openapi-model';

export const CONSOLE_SESSION_COOKIE = '__Host-console-session';
export const CONSOLE_REQUEST_HEADER = 'X-Console-Request';

export interface ConsoleResources {
  /** The owner's session: every console base request sends it. */
  readonly sessionId: string;
  /** A session of another owner of the org whose access token expired: no issuer here renews it, so it is refused. */
  readonly expiredSessionId: string;
  /** A session of a person in no org, for the sign-out route (which ends the session its cookie names). */
  readonly signOutSessionId: string;
  /** Members who are not the owner: one whose role base requests change, one they remove. */
  readonly memberId: string;
  readonly removableMemberId: string;
  /** A pending invitation base requests revoke. */
  readonly invitationId: string;
  /** Apps no key of the tenant belongs to: one base requests read and change, one they delete. */
  readonly appId: string;
  readonly deletableAppId: string;
  /** Org keys no base request authenticates with: one base requests rotate, one they revoke. */
  readonly keyId: string;
  readonly revocableKeyId: string;
}

export interface ConsoleApi {
  readonly baseUrl: string;
  consoleMember(ask: { orgId?: string; role?: Role; accessExpired?: boolean }): Promise<{ sessionId: string; memberId: string }>;
}

/** The headers of a signed-in console call (the custom header is what a cross-site form cannot send). */
export function consoleHeaders(sessionId: string): [string, string][] {
  return [
    ['Cookie', `${CONSOLE_SESSION_COOKIE}=${sessionId}`],
    [CONSOLE_REQUEST_HEADER, '1'],
  ];
}

export async function createConsoleResources(api: ConsoleApi, orgId: string, n: number): Promise<ConsoleResources> {
  const owner = await api.consoleMember({ orgId, role: 'owner' });
  const post = async (path: string, body: unknown): Promise<{ id: string }> => {
    const res = await fetch(`${api.baseUrl}/console/v1/orgs/${orgId}${path}`, {
      method: 'POST',
      headers: { ...Object.fromEntries(consoleHeaders(owner.sessionId)), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`fuzz setup: console POST ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return (JSON.parse(text) as { data: { id: string } }).data;
  };
  return {
    sessionId: owner.sessionId,
    expiredSessionId: (await api.consoleMember({ orgId, role: 'owner', accessExpired: true })).sessionId,
    signOutSessionId: (await api.consoleMember({})).sessionId,
    memberId: (await api.consoleMember({ orgId, role: 'developer' })).memberId,
    removableMemberId: (await api.consoleMember({ orgId, role: 'viewer' })).memberId,
    invitationId: (await post('/invitations', { email: `invitee-${n}@fuzz.example`, role: 'viewer' })).id,
    appId: (await post('/apps', { name: `Fuzz console app ${n}` })).id,
    deletableAppId: (await post('/apps', { name: `Fuzz console spare app ${n}` })).id,
    keyId: (await post('/keys', { scopes: ['apps:read'], name: 'fuzz rotate' })).id,
    revocableKeyId: (await post('/keys', { scopes: ['apps:read'], name: 'fuzz revoke' })).id,
  };
}

export const isConsole = (op: Operation) => op.template.startsWith('/console/');

/** The sign-in routes read the cookie themselves; the one that signs out gets a session of its own to end. */
export function consoleSessionOf(op: Operation, c: ConsoleResources): string | undefined {
  if (!isConsole(op)) return undefined;
  return op.id === 'consoleLogout' ? c.signOutSessionId : c.sessionId;
}

/**
 * A console path's ids of the tenant's spare resources, by parameter name; undefined where the
 * tenant's own resource (or the generic fallback) is right. Whatever the method, a path that ends at
 * a resource names a spare: a method mutation turns a read of it into a delete.
 */
export function consolePathValue(op: Operation, name: string, t: Tenant): string | undefined {
  const c = t.console;
  const deletes = op.method === 'DELETE';
  const endsAt = op.template.endsWith(`/{${name}}`);
  switch (name) {
    case 'memberId':
      return deletes ? c.removableMemberId : c.memberId;
    case 'invitationId':
      return c.invitationId;
    case 'keyId':
      return deletes ? c.revocableKeyId : c.keyId;
    case 'appId':
      return endsAt ? (deletes ? c.deletableAppId : c.appId) : undefined;
    case 'sessionId':
      return endsAt ? t.importedSessionId : undefined;
    default:
      return undefined;
  }
}
