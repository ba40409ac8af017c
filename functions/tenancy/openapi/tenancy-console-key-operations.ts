/**
 * The console's key routes in its OpenAPI document: org keys, chat keys and ACP keys, each shown once at
 * creation and then by prefix, creator and last use; revoking and rotating.
 */
import * as z from 'zod';
import { isoTime, json, type OperationDoc } from '../../kernel/openapi-kit';
import { ORG_SCOPES } from '../../kernel/domain/scopes';
import { adminData } from './admin-schemas';
import { CONSOLE_TENANCY_REQUESTS as R } from './tenancy-console-requests';
import { CONSOLE_ERRORS } from './tenancy-console-operations';

const TAG = 'Keys';

const key = z
  .object({
    id: z.string(),
    kind: z.enum(['org', 'chat', 'acp']),
    prefix: z.string().meta({ description: 'The key’s first characters, to recognise it' }),
    name: z.nullable(z.string()),
    scopes: z.array(z.enum(ORG_SCOPES as [string, ...string[]])).meta({ description: 'Org keys: the read scopes (empty for chat and ACP keys)' }),
    appId: z.nullable(z.string()),
    createdAt: isoTime,
    createdBy: z.nullable(z.object({ kind: z.enum(['member', 'operator']), id: z.string(), email: z.nullable(z.string()) })),
    expiresAt: z.nullable(isoTime),
    lastUsedAt: z.nullable(isoTime).meta({ description: 'Written at most once a minute per key' }),
    revoked: z.boolean(),
    revokedAt: z.nullable(isoTime),
    state: z.enum(['active', 'expired', 'revoked']),
    rotatedFromId: z.nullable(z.string()),
    rotatedToId: z.nullable(z.string()),
  })
  .meta({ title: 'ConsoleKey' });
const issued = key.extend({ key: z.string().meta({ description: 'The key itself: in this answer and never again' }) }).meta({ title: 'ConsoleIssuedKey' });
const created = (summary: string, description: string, request: OperationDoc['request']): OperationDoc => ({
  tag: TAG,
  summary,
  description,
  ...(request ? { request } : {}),
  ok: { status: 201, description: 'The key, shown once', content: json(adminData(issued, 'ConsoleIssuedKeyAnswer')) },
  errors: [...CONSOLE_ERRORS],
});

export const TENANCY_CONSOLE_KEY_OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  consoleKeysList: {
    tag: TAG,
    summary: 'List keys',
    description: 'The org’s keys of every kind, newest first, by prefix, name, scopes, expiry, creator and last use; never a secret.',
    request: R.consoleKeysList,
    ok: {
      status: 200,
      description: 'A page of keys',
      content: json(z.object({ data: z.array(key), nextCursor: z.nullable(z.string()) }).meta({ title: 'ConsoleKeysPage' })),
    },
    errors: [...CONSOLE_ERRORS],
  },
  consoleOrgKeyCreate: created(
    'Create an org key',
    'An org key (`svc_org_…`) for the Org Export API, with one or more read scopes and an optional expiry.',
    R.consoleOrgKeyCreate,
  ),
  consoleChatKeyCreate: created('Create a chat key', 'A chat key (`svc_chat_…`) of the app, for the Chat Completions API.', R.consoleChatKeyCreate),
  consoleAcpKeyCreate: created('Create an ACP key', 'An ACP key (`acp_…`) of the app, for its ACP checkout.', R.consoleAcpKeyCreate),
  consoleKeyRevoke: {
    tag: TAG,
    summary: 'Revoke a key',
    description: 'Every request with the key is refused from now on.',
    request: R.consoleKeyRevoke,
    ok: { status: 200, description: 'The revoked key', content: json(adminData(key, 'ConsoleKeyAnswer')) },
    errors: [...CONSOLE_ERRORS],
  },
  consoleKeyRotate: {
    tag: TAG,
    summary: 'Rotate a key',
    description:
      'Issues a new key with the same kind, name, scopes, app and expiry (shown once) and revokes the old one now, or after `graceSeconds` (at most a day) so clients can switch. A key already rotated, revoked or expired is a 409.',
    request: R.consoleKeyRotate,
    ok: {
      status: 201,
      description: 'The new key and the old one as it now stands',
      content: json(adminData(z.object({ successor: issued, previous: key }), 'ConsoleRotatedKeyAnswer')),
    },
    errors: [...CONSOLE_ERRORS, 409],
  },
};
