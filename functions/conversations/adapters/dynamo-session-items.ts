/**
 * The items of a session's partition (`SESSION#<id>`): the session item with the keyset positions of
 * area A (gsi1 org and gsi2 app on (last_activity_at, id), gsi3 a consumer's sessions, the sparse gsi4
 * of sessions that never had a message), and its message items. A session with an `external_id` also
 * has a lookup item in its org's partition of that id (`SESSEXT#<org>#<external id>`, one item a session),
 * written before the session and removed before it, so the external id finds its sessions by key.
 */
import { lastActivityOf, type Message, type Session } from '../domain/session';
import { timeIdKey } from '../../kernel/adapters/dynamo-batch';

export const sessionPk = (id: string) => `SESSION#${id}`;
export const sessionKey = (id: string) => ({ pk: sessionPk(id), sk: 'SESSION' });
/** The version a session item is written at; every touch moves it on by one. */
export const SESSION_FIRST_VERSION = 1;

export const EMPTY_SESSIONS = 'EMPTYSESS';
export const appSessionsPartition = (appId: string) => `APPSESS#${appId}`;
/** The lookup item of a session's external id; the org in the key keeps one org's ids from another's. */
export const externalIdKey = (s: Pick<Session, 'id' | 'orgId'> & { readonly externalId: string }) => ({
  pk: externalIdPartition(s.orgId, s.externalId),
  sk: `SESSION#${s.id}`,
});
export const externalIdPartition = (orgId: string, externalId: string) => `SESSEXT#${orgId}#${externalId}`;

const SESSION_FIELDS = [
  'id',
  'orgId',
  'appId',
  'consumerId',
  'consumerEmail',
  'title',
  'source',
  'externalId',
  'queryParams',
  'startedAtUs',
  'lastMessageAtUs',
  'touchedAtUs',
] as const;

export function sessionFromItem(item: Record<string, unknown>): Session {
  const out: Record<string, unknown> = {};
  for (const f of SESSION_FIELDS) out[f] = item[f] ?? null;
  return out as unknown as Session;
}

/** The item `create` writes for a new session (also used by bench/ to seed a table directly). */
export function sessionItem(s: Session): Record<string, unknown> {
  const activity = lastActivityOf(s);
  const position = timeIdKey(activity, s.id);
  return {
    ...sessionKey(s.id),
    type: 'session',
    ...s,
    queryParams: [...s.queryParams],
    lastActivityUs: activity,
    version: SESSION_FIRST_VERSION,
    gsi1pk: `ORGSESS#${s.orgId}`,
    gsi1sk: position,
    gsi2pk: appSessionsPartition(s.appId),
    gsi2sk: position,
    ...(s.consumerId ? { gsi3pk: `CONSSESS#${s.consumerId}`, gsi3sk: timeIdKey(s.startedAtUs, s.id) } : {}),
    ...(s.lastMessageAtUs === null ? { gsi4pk: EMPTY_SESSIONS, gsi4sk: position } : {}),
  };
}

/** The item `putMessage` writes (also used by bench/ to seed a table directly). */
export function messageItem(m: Message): Record<string, unknown> {
  return {
    pk: sessionPk(m.sessionId),
    sk: `MSG#${timeIdKey(m.createdAtUs, m.id)}`,
    type: 'message',
    ...m,
    ...(m.tools ? { tools: [...m.tools] } : {}),
    ...(m.files ? { files: [...m.files] } : {}),
    ...(m.toolCalls ? { toolCalls: [...m.toolCalls] } : {}),
  };
}

export function messageFromItem(item: Record<string, unknown>): Message {
  const { id, sessionId, role, content, createdAtUs, tools, files, toolCalls, toolCallId, turnId } = item as unknown as Message;
  return {
    id,
    sessionId,
    role,
    content,
    createdAtUs,
    ...(tools ? { tools } : {}),
    ...(files ? { files } : {}),
    ...(toolCalls ? { toolCalls } : {}),
    ...(toolCallId !== undefined ? { toolCallId } : {}),
    ...(turnId ? { turnId } : {}),
  };
}
