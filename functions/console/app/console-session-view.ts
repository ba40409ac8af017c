/**
 * A signed-in person's console session: who they are and their orgs with their role and its
 * permissions (the one permission table, tenancy/domain/roles.ts), read from the store on every call;
 * and the end of a session, with the issuer's logout URL so its own session ends too.
 */
import type { ConsoleSession } from '../../tenancy/app/identity-ports';
import { userKeyOf } from '../../tenancy/domain/members';
import { permissionsOf, type Permission, type Role } from '../../tenancy/domain/roles';
import { nowS, requireConsoleAuth } from '../../tenancy/app/console-sessions';
import type { ConsoleDeps } from './console-ports';

export interface ConsoleSessionView {
  readonly person: { readonly email: string | null };
  readonly orgs: { readonly orgId: string; readonly name: string; readonly role: Role; readonly permissions: Permission[] }[];
}

export async function viewConsoleSession(deps: ConsoleDeps, session: ConsoleSession): Promise<ConsoleSessionView> {
  const memberships = await deps.members.listByPerson(userKeyOf(session.person));
  const orgs = await Promise.all(
    memberships.map(async (m) => {
      const org = await deps.orgs.get(m.orgId);
      return org ? { orgId: m.orgId, name: org.name, role: m.role, permissions: permissionsOf(m.role) } : undefined;
    }),
  );
  return { person: { email: session.person.email ?? null }, orgs: orgs.filter((o) => o !== undefined) };
}

/** Deletes the session, if there is one; the issuer's end-session URL when it has one (else null). */
export async function endConsoleSession(deps: ConsoleDeps, sessionId: string | undefined): Promise<{ logoutUrl: string | null }> {
  const auth = await requireConsoleAuth(deps);
  const session = sessionId ? await deps.consoleSessions.get(sessionId, nowS(deps)) : undefined;
  if (!sessionId || !session) return { logoutUrl: null };
  const tokens = await session.tokens().catch(() => undefined);
  await deps.consoleSessions.delete(sessionId);
  const logoutUrl = tokens
    ? await auth.client.logoutUrl({ idTokenHint: tokens.idToken, postLogoutRedirectUri: auth.postLogoutRedirectUri }).catch(() => null)
    : null;
  return { logoutUrl };
}
