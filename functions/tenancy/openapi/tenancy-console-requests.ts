/**
 * The requests of tenancy's console routes (the org, its plan, members, invitations and audit log),
 * keyed by route id. Bodies are `zod/mini` schemas; every query parameter is declared (the console
 * refuses others: `strictQuery`).
 */
import * as z from 'zod/mini';
import { declaredPathId, param, uuidPathId } from '../../kernel/http/request-declaration';
import { appKeyRequest, isoTimestamp, zodBody } from '../../kernel/http/validation';
import { ORG_SCOPES } from '../../kernel/domain/scopes';
import { KEY_PAGE_MAX } from '../domain/credentials';
import { badRequest } from '../../kernel/domain/errors';
import { ROLES } from '../domain/roles';
import { MAX_INVITATION_TTL_DAYS } from '../domain/invitations';
import { AUDIT_PAGE_MAX } from '../domain/audit';
import { MEMBER_ID } from '../domain/member-id';
import { appCreateRequest, appUpdateRequest } from './tenancy-admin-requests';

const org = { orgId: uuidPathId('orgId') };
const member = { ...org, memberId: declaredPathId('memberId', MEMBER_ID) };
const app = { ...org, appId: uuidPathId('appId') };
const key = { ...org, keyId: uuidPathId('keyId') };

/** A positive page size up to `max`. */
const pageSize = (max: number) =>
  param({ type: 'integer', minimum: 1, maximum: max, description: `Items per page (at most ${max})` }, (raw) => {
    const n = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(n >= 1 && n <= max)) throw badRequest(`Invalid limit: must be from 1 to ${max}`);
    return n;
  });

/** The `nextCursor` of the previous page, opaque; a longer one than any page writes is refused. */
const cursor = param({ type: 'string', maxLength: 512, description: 'The `nextCursor` of the previous page' }, (raw) => {
  if (raw.length > 512) throw badRequest('Invalid cursor');
  return raw;
});

/** Short words of the audit log (`member`, `consoleKeyCreate`): no separators a key could be forged with. */
const word = (name: string, description: string) =>
  param({ type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$', description }, (raw) => {
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(raw)) throw badRequest(`Invalid ${name}: letters, digits, dot, dash or underscore, at most 64`);
    return raw;
  });

export const CONSOLE_TENANCY_REQUESTS = {
  consoleOrgGet: { path: org },
  consoleOrgUpdate: { path: org, body: zodBody(z.strictObject({ name: z.string().check(z.minLength(1), z.maxLength(200)) }), { required: true }) },
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
  consoleKeysList: {
    path: org,
    query: {
      appId: param({ type: 'string', format: 'uuid', description: 'Only the keys of this app' }, (raw) => {
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw)) throw badRequest('Invalid appId: must be a UUID');
        return raw;
      }),
      kind: param({ type: 'string', enum: ['org', 'chat', 'acp'], description: 'Only keys of this kind' }, (raw) => {
        if (raw !== 'org' && raw !== 'chat' && raw !== 'acp') throw badRequest('Invalid kind: must be org, chat or acp');
        return raw;
      }),
      limit: pageSize(KEY_PAGE_MAX),
      cursor,
    },
  },
  consoleOrgKeyCreate: {
    path: org,
    body: zodBody(
      z.strictObject({
        scopes: z.array(z.enum(ORG_SCOPES as [string, ...string[]])).check(z.minLength(1)),
        expiresAt: z.optional(isoTimestamp),
        name: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
      }),
      { required: true },
    ),
  },
  consoleChatKeyCreate: { path: app, body: zodBody(appKeyRequest) },
  consoleAcpKeyCreate: { path: app, body: zodBody(appKeyRequest) },
  consoleKeyRevoke: { path: key },
  consoleKeyRotate: {
    path: key,
    body: zodBody(z.strictObject({ graceSeconds: z.optional(z.int().check(z.minimum(0), z.maximum(86_400))) })),
  },
  consoleAuditList: {
    path: org,
    query: {
      actor: param({ type: 'string', maxLength: 200, description: 'Only the records of this actor (a member’s user key, or the operator’s id)' }, (raw) => {
        if (raw.length < 1 || raw.length > 200) throw badRequest('Invalid actor: 1 to 200 characters');
        return raw;
      }),
      action: word('action', 'Only records of this action'),
      resourceType: word('resourceType', 'Only records about this kind of resource (`member`, `key`, `app`…)'),
      limit: pageSize(AUDIT_PAGE_MAX),
      cursor,
    },
  },
};
