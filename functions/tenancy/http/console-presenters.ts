/** Wire shapes of tenancy's console resources (camelCase in a `data` envelope, as the admin API's): members, invitations, audit records. */
import { microsToIso, type Micros } from '../../kernel/domain/time';
import type { AuditRecord } from '../domain/audit';
import { invitationState, type Invitation } from '../domain/invitations';
import type { Member } from '../domain/members';
import type { App } from '../domain/app';
import { adminApp } from './admin-presenters';

export function consoleMember(m: Member) {
  return { id: m.userKey, email: m.email, role: m.role, joinedAt: microsToIso(m.joinedAtUs) };
}

export function consoleInvitation(inv: Invitation, nowUs: Micros) {
  return {
    id: inv.id,
    email: inv.email,
    role: inv.role,
    state: invitationState(inv, nowUs),
    invitedBy: inv.invitedBy,
    createdAt: microsToIso(inv.createdAtUs),
    expiresAt: microsToIso(inv.expiresAtUs),
    acceptedAt: inv.acceptedAtUs !== undefined ? microsToIso(inv.acceptedAtUs) : null,
  };
}

export function consoleAuditRecord(r: AuditRecord) {
  return {
    id: r.id,
    at: microsToIso(r.at),
    actor: { kind: r.actor.kind, id: r.actor.id, email: r.actor.email ?? null },
    action: r.action,
    resource: r.resource,
    ip: r.ip,
    userAgent: r.userAgent,
    before: r.before ?? null,
    after: r.after ?? null,
  };
}

/**
 * An app as the console shows it: the admin view, but an MCP connection's header values are write-only
 * (they hold the tool server's credentials): only their names are shown.
 */
export function consoleApp(app: App) {
  const view = adminApp(app);
  const mcpConnections = app.settings.mcpConnections.map(({ headers, ...connection }) => ({ ...connection, headerNames: Object.keys(headers ?? {}) }));
  return { ...view, settings: { ...view.settings, mcpConnections } };
}
