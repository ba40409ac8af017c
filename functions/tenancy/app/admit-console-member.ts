/**
 * The admission of the console API (auth kind `consoleSession`): the browser's session cookie names a
 * server-side session; a state-changing call must carry the custom header a cross-site form cannot send
 * and may not come from another origin; and on a route of an org, the signed-in person must be its
 * member with a role the route's permission allows (the one table, tenancy/domain/roles.ts). Someone
 * who is not a member learns nothing of the org: 404, as for an org that does not exist.
 */
import { DomainError, notFound } from '../../kernel/domain/errors';
import type { AdmissionRequest } from '../../kernel/app/admission-ports';
import type { AuditScope } from '../../kernel/app/audit-trail-ports';
import type { RouteDef } from '../../kernel/route-vocabulary';
import { SIGNED_IN } from '../../kernel/domain/console-api-base';
import { CONSOLE_CSRF_HEADER, readSessionCookie } from '../domain/console-session';
import { userKeyOf } from '../domain/members';
import { can, PERMISSION_NAMES, type Permission, type Role } from '../domain/roles';
import type { Acting } from './act-on-org';
import { notSignedIn, requireConsoleSession, type ConsoleSessionDeps } from './console-sessions';
import type { MemberStore } from './members-ports';
import type { VerifiedPerson } from './identity-ports';

/** What the console admission reads: the sessions, the memberships, and the console's own origin. */
export type ConsoleAdmissionDeps = ConsoleSessionDeps & {
  readonly members: Pick<MemberStore, 'get'>;
  /** `scheme://host[:port]` of the console; a call from any other `Origin` is refused. */
  readonly consoleOrigin?: string;
};

/** What a console handler reads of its caller (`req.console`). */
export interface ConsoleCaller extends SignedInIdentity {
  /** On a route of an org: the org of the path and the caller's role in it, checked against the route. */
  readonly orgId?: string;
  readonly role?: Role;
  /** The caller as the use cases that record their own audit take it. */
  readonly acting: Acting;
}

export interface SignedInIdentity {
  readonly userKey: string;
  readonly email: string | null;
  /** Who the issuer says signed in (accepting an invitation checks its verified address). */
  readonly person: VerifiedPerson;
}

/** The session's person, or the answer of a request that may not go further (403 before 401: no session is read for a forged call). */
export async function identifyConsoleCaller(deps: ConsoleAdmissionDeps, route: RouteDef, req: AdmissionRequest): Promise<SignedInIdentity> {
  if (route.method !== 'GET' && req.header(CONSOLE_CSRF_HEADER) === undefined) {
    throw new DomainError('forbidden', `Missing ${CONSOLE_CSRF_HEADER} header`);
  }
  const origin = req.header('origin');
  if (origin !== undefined && deps.consoleOrigin !== undefined && origin !== deps.consoleOrigin) {
    throw new DomainError('forbidden', 'Cross-origin requests are not allowed');
  }
  const sessionId = readSessionCookie(req.header('cookie'));
  if (!sessionId) throw notSignedIn();
  const session = await requireConsoleSession(deps, sessionId);
  return { userKey: userKeyOf(session.person), email: session.person.email ?? null, person: session.person };
}

/** The caller's membership of the path's org, if the route's permission allows its role. */
export async function admitConsoleMember(
  deps: ConsoleAdmissionDeps,
  route: RouteDef,
  req: AdmissionRequest,
  who: SignedInIdentity,
  counted: Promise<void>,
): Promise<{ caller: ConsoleCaller; audit: AuditScope }> {
  const acting: Acting = {
    by: { kind: 'member', userKey: who.userKey },
    origin: { ip: req.clientIp, userAgent: (req.header('user-agent') ?? '').slice(0, 512) },
  };
  const actor = { kind: 'member' as const, id: who.userKey, ...(who.email ? { email: who.email } : {}) };
  const permission = route.permission;
  if (permission === SIGNED_IN) return { caller: { ...who, acting }, audit: { actor } };
  if (!isPermission(permission)) throw new Error(`console route ${route.id} names no permission of the table: ${String(permission)}`);
  const orgId = req.path.orgId;
  if (orgId === undefined) throw new Error(`console route ${route.id} needs {orgId} in its path for permission ${permission}`);
  const member = route.pathParams?.orgId?.read(orgId) === undefined ? undefined : await deps.members.get(orgId, who.userKey);
  if (!member) {
    await counted;
    throw notFound('Org not found');
  }
  if (!can(member.role, permission)) {
    await counted;
    throw new DomainError('forbidden', `Your role (${member.role}) may not do this: ${permission}`);
  }
  return { caller: { ...who, orgId, role: member.role, acting }, audit: { actor, orgId } };
}

function isPermission(value: string | undefined): value is Permission {
  return (PERMISSION_NAMES as readonly (string | undefined)[]).includes(value);
}

/** The console caller the admission put on a request (`req.console`); only `consoleSession` routes have one. */
export function consoleCallerOf(req: { readonly console?: ConsoleCaller }): ConsoleCaller {
  if (!req.console) throw new Error('not a consoleSession route: no console caller on the request');
  return req.console;
}

/** The caller's org on a route of an org. */
export function consoleOrgOf(req: { readonly console?: ConsoleCaller }): { orgId: string; caller: ConsoleCaller } {
  const caller = consoleCallerOf(req);
  if (caller.orgId === undefined) throw new Error('not a console route of an org');
  return { orgId: caller.orgId, caller };
}

/** The console admission as the key admission takes it (admit-request.ts): injected, so a key-only function never loads it. */
export interface ConsoleAdmission {
  identify(route: RouteDef, req: AdmissionRequest): Promise<SignedInIdentity>;
  admit(route: RouteDef, req: AdmissionRequest, who: SignedInIdentity, counted: Promise<void>): Promise<{ caller: ConsoleCaller; audit: AuditScope }>;
}

export function consoleAdmissionOf(deps: ConsoleAdmissionDeps): ConsoleAdmission {
  return {
    identify: (route, req) => identifyConsoleCaller(deps, route, req),
    admit: (route, req, who, counted) => admitConsoleMember(deps, route, req, who, counted),
  };
}
