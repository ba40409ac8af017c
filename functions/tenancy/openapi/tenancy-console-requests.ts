/**
 * The requests of tenancy's console routes (the org, its plan, members, invitations and audit log),
 * keyed by route id. Bodies are `zod/mini` schemas; every query parameter is declared (the console
 * refuses others: `strictQuery`).
 */
import * as z from 'zod/mini';
import { declaredPathId, param, uuidPathId } from '../../kernel/http/request-declaration';
import { zodBody } from '../../kernel/http/validation';
import { badRequest } from '../../kernel/domain/errors';
import { ROLES } from '../domain/roles';
import { MAX_INVITATION_TTL_DAYS } from '../domain/invitations';
import { AUDIT_PAGE_MAX } from '../domain/audit';
import { MEMBER_ID } from '../domain/member-id';
import { appCreateRequest, appUpdateRequest } from './tenancy-admin-requests';

const org = { orgId: uuidPathId('orgId') };
const member = { ...org, memberId: declaredPathId('memberId', MEMBER_ID) };
const app = { ...org, appId: uuidPathId('appId') };

/** Short words of the audit log (`member`, `consoleKeyCreate`): no separators a key could be forged with. */
const word = (name: string, description: string) =>
  param({ type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$', description }, (raw) => {
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(raw)) throw badRequest(`Invalid ${name}: letters, digits, dot, dash or underscore, at most 64`);
    return raw;
  });

export const CONSOLE_TENANCY_REQUESTS = {
  consoleOrgGet: { path: org },
  consolePlanGet: { path: org },
  consoleMembersList: { path: org },
  consoleMemberUpdate: { path: member, body: zodBody(z.strictObject({ role: z.enum(ROLES) }), { required: true }) },
  consoleMemberRemove: { path: member },
  consoleInvitationsList: { path: org },
  consoleInvitationCreate: {
    path: org,
    body: zodBody(
      z.strictObject({
        email: z.string().check(z.minLength(3), z.maxLength(254)),
        role: z.enum(ROLES),
        ttlDays: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_INVITATION_TTL_DAYS))),
      }),
      { required: true },
    ),
  },
  consoleInvitationRevoke: { path: { ...org, invitationId: uuidPathId('invitationId') } },
  consoleInvitationAccept: { body: zodBody(z.strictObject({ token: z.string().check(z.minLength(1), z.maxLength(200)) }), { required: true }) },
  consoleAppsList: { path: org },
  consoleAppCreate: { path: org, body: zodBody(appCreateRequest, { required: true }) },
  consoleAppGet: { path: app },
  consoleAppUpdate: { path: app, body: zodBody(appUpdateRequest, { required: true }) },
  consoleAppDelete: { path: app },
  consoleAuditList: {
    path: org,
    query: {
      actor: param({ type: 'string', maxLength: 200, description: 'Only the records of this actor (a member’s user key, or the operator’s id)' }, (raw) => {
        if (raw.length < 1 || raw.length > 200) throw badRequest('Invalid actor: 1 to 200 characters');
        return raw;
      }),
      action: word('action', 'Only records of this action'),
      resourceType: word('resourceType', 'Only records about this kind of resource (`member`, `key`, `app`…)'),
      limit: param({ type: 'integer', minimum: 1, maximum: AUDIT_PAGE_MAX, description: `Records per page (default 50, at most ${AUDIT_PAGE_MAX})` }, (raw) => {
        const n = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
        if (!(n >= 1 && n <= AUDIT_PAGE_MAX)) throw badRequest(`Invalid limit: must be from 1 to ${AUDIT_PAGE_MAX}`);
        return n;
      }),
      cursor: param({ type: 'string', maxLength: 512, description: 'The `nextCursor` of the previous page' }, (raw) => {
        if (raw.length > 512) throw badRequest('Invalid cursor');
        return raw;
      }),
    },
  },
};
