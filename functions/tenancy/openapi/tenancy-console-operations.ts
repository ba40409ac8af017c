/**
 * Tenancy's part of the console OpenAPI document: the org, its plan, members, invitations and audit log
 * (the console routes of tenancy/tenancy-routes.ts), joined in functions/openapi/console-document.ts.
 */
import * as z from 'zod';
import { isoTime, json, type OperationDoc } from '../../kernel/openapi-kit';
import { PERMISSION_NAMES, ROLES } from '../domain/roles';
import { adminApp, adminData, adminOrg } from './admin-schemas';
import { CONSOLE_TENANCY_REQUESTS as R } from './tenancy-console-requests';

const TAG = 'Org';
/**
 * Every console route can answer these: a query parameter it does not declare (400), no session (401), no
 * custom header or a role that may not (403), an org the caller is not in (404), too many requests (429).
 */
export const CONSOLE_ERRORS = [400, 401, 403, 404, 429] as const;

const role = z.enum(ROLES);
const member = z.object({ id: z.string(), email: z.string(), role, joinedAt: isoTime }).meta({ title: 'ConsoleMember' });
const invitation = z
  .object({
    id: z.string(),
    email: z.string(),
    role,
    state: z.enum(['pending', 'accepted', 'revoked', 'expired']),
    invitedBy: z.string(),
    createdAt: isoTime,
    expiresAt: isoTime,
    acceptedAt: z.nullable(isoTime),
  })
  .meta({ title: 'ConsoleInvitation' });
const auditRecord = z
  .object({
    id: z.string(),
    at: isoTime,
    actor: z.object({ kind: z.enum(['member', 'operator']), id: z.string(), email: z.nullable(z.string()) }),
    action: z.string(),
    resource: z.object({ type: z.string(), id: z.string() }),
    ip: z.string(),
    userAgent: z.string(),
    before: z.nullable(z.record(z.string(), z.unknown())),
    after: z.nullable(z.record(z.string(), z.unknown())),
  })
  .meta({ title: 'ConsoleAuditRecord' });

export const TENANCY_CONSOLE_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  consoleOrgGet: {
    tag: TAG,
    summary: 'Read the org',
    description: 'The org’s name and plan, the caller’s role in it and the permissions that role has (the console shows what they allow).',
    request: R.consoleOrgGet,
    ok: {
      status: 200,
      description: 'The org',
      content: json(adminData(adminOrg.extend({ role, permissions: z.array(z.enum(PERMISSION_NAMES as [string, ...string[]])) }), 'ConsoleOrgAnswer')),
    },
    errors: [...CONSOLE_ERRORS],
  },
  consoleOrgUpdate: {
    tag: TAG,
    summary: 'Rename the org',
    description: 'The plan is changed by the platform’s operator, not here.',
    request: R.consoleOrgUpdate,
    ok: { status: 200, description: 'The org', content: json(adminData(adminOrg, 'ConsoleOrgRenamed')) },
    errors: [...CONSOLE_ERRORS],
  },
  consolePlanGet: {
    tag: TAG,
    summary: 'Read the plan and credits',
    description: 'The org’s plan and its prepaid credit balance in USD (`null`: no prepaid account; usage is billed afterwards).',
    request: R.consolePlanGet,
    ok: {
      status: 200,
      description: 'Plan and balance',
      content: json(adminData(z.object({ plan: z.string(), creditsUsd: z.nullable(z.string()) }), 'ConsolePlanAnswer')),
    },
    errors: [...CONSOLE_ERRORS],
  },
  consoleMembersList: {
    tag: TAG,
    summary: 'List members',
    description: 'Everyone in the org with their role.',
    request: R.consoleMembersList,
    ok: { status: 200, description: 'The members', content: json(adminData(z.array(member), 'ConsoleMembersAnswer')) },
    errors: [...CONSOLE_ERRORS],
  },
  consoleMemberUpdate: {
    tag: TAG,
    summary: 'Change a member’s role',
    description: 'Only an owner grants, changes or removes the owner role; an org never loses its last owner (409).',
    request: R.consoleMemberUpdate,
    ok: { status: 200, description: 'The member', content: json(adminData(member, 'ConsoleMemberAnswer')) },
    errors: [...CONSOLE_ERRORS, 409],
  },
  consoleMemberRemove: {
    tag: TAG,
    summary: 'Remove a member',
    description: 'The person loses access to the org at once. Never the last owner (409); only an owner removes an owner.',
    request: R.consoleMemberRemove,
    ok: { status: 204, description: 'Removed' },
    errors: [...CONSOLE_ERRORS, 409],
  },
  consoleInvitationsList: {
    tag: TAG,
    summary: 'List pending invitations',
    description: 'The invitations not yet accepted, revoked or expired, newest first; never their tokens.',
    request: R.consoleInvitationsList,
    ok: { status: 200, description: 'The pending invitations, newest first', content: json(adminData(z.array(invitation), 'ConsoleInvitationsAnswer')) },
    errors: [...CONSOLE_ERRORS],
  },
  consoleInvitationCreate: {
    tag: TAG,
    summary: 'Invite someone',
    description:
      'Invites an e-mail address with a role for `ttlDays` (default 7, at most 30). The answer holds the token and the link to send, once; whoever signs in with that verified address and opens the link joins. No mail is sent.',
    request: R.consoleInvitationCreate,
    ok: {
      status: 201,
      description: 'The invitation, with its token and link (shown once)',
      content: json(adminData(invitation.extend({ token: z.string(), link: z.string() }), 'ConsoleInvitationCreated')),
    },
    errors: [...CONSOLE_ERRORS, 409],
  },
  consoleInvitationRevoke: {
    tag: TAG,
    summary: 'Revoke an invitation',
    description: 'Its link stops working at once; an invitation already accepted is a 409.',
    request: R.consoleInvitationRevoke,
    ok: { status: 200, description: 'The revoked invitation', content: json(adminData(invitation, 'ConsoleInvitationAnswer')) },
    errors: [...CONSOLE_ERRORS, 409],
  },
  consoleInvitationAccept: {
    tag: TAG,
    summary: 'Accept an invitation',
    description: 'The signed-in person joins the org with the invitation’s role, if the invitation names their verified e-mail address and is still pending.',
    request: R.consoleInvitationAccept,
    ok: { status: 200, description: 'The membership', content: json(adminData(member.extend({ orgId: z.string() }), 'ConsoleMembershipAnswer')) },
    errors: [400, 401, 403, 404, 409, 429],
  },
  consoleAuditList: {
    tag: TAG,
    summary: 'Read the audit log',
    description:
      'Every change made through the console or the admin API, newest first: who, what, on which resource, when, from which address and user agent, before and after (never a secret). Kept for 400 days.',
    request: R.consoleAuditList,
    ok: {
      status: 200,
      description: 'A page of records',
      content: json(z.object({ data: z.array(auditRecord), nextCursor: z.nullable(z.string()) }).meta({ title: 'ConsoleAuditPage' })),
    },
    errors: [...CONSOLE_ERRORS],
  },
  consoleAppsList: {
    tag: 'Apps',
    summary: 'List apps',
    description: 'The org’s apps with their settings. An MCP connection’s header values are write-only: only their names are shown (`headerNames`).',
    request: R.consoleAppsList,
    ok: { status: 200, description: 'The apps', content: json(adminData(z.array(adminApp), 'ConsoleAppsAnswer')) },
    errors: [...CONSOLE_ERRORS],
  },
  consoleAppCreate: {
    tag: 'Apps',
    summary: 'Create an app',
    description: 'An app with optional settings (defaults otherwise); its `appNameId` is the `model` chat clients send.',
    request: R.consoleAppCreate,
    ok: { status: 201, description: 'The app', content: json(adminData(adminApp, 'ConsoleAppAnswer')) },
    errors: [...CONSOLE_ERRORS, 409],
  },
  consoleAppGet: {
    tag: 'Apps',
    summary: 'Read an app',
    description: 'One app of the org and its settings (MCP header values are write-only: only their names are shown).',
    request: R.consoleAppGet,
    ok: { status: 200, description: 'The app', content: json(adminData(adminApp, 'ConsoleAppAnswer')) },
    errors: [...CONSOLE_ERRORS],
  },
  consoleAppUpdate: {
    tag: 'Apps',
    summary: 'Rename an app or change its settings',
    description:
      'Model, image input and its limit, Zero Data Retention, the monthly usage cap, MCP connections (sent whole, header values included), ACP policy links and tax. The settings sent are merged over the current ones.',
    request: R.consoleAppUpdate,
    ok: { status: 200, description: 'The app', content: json(adminData(adminApp, 'ConsoleAppAnswer')) },
    errors: [...CONSOLE_ERRORS],
  },
  consoleAppDelete: {
    tag: 'Apps',
    summary: 'Delete an app',
    description:
      'The app leaves every list at once; its sessions and consumers are then deleted in the background, each with a tombstone in the export’s deletion feed.',
    request: R.consoleAppDelete,
    ok: { status: 204, description: 'Deleted' },
    errors: [...CONSOLE_ERRORS],
  },
};
