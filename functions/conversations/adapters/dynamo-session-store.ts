/**
 * Sessions and their messages share a partition (`SESSION#<id>`, item shapes in dynamo-session-items.ts).
 *
 * A first chat turn reserves its session's id before the session exists: the reservation sits where the
 * session item will be, holds the turn lease (so a turn continuing that id waits like on any busy
 * session), has no index keys (no list shows it, `get` ignores it), and is replaced by the session when
 * the turn records it, deleted when the turn fails, and expires by TTL when a crash leaves it.
 *
 * Every activity change is an optimistic read-modify-write on `version`, so the touch clock and
 * `last_message_at` only move forward even under concurrent writers, without transactions.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { lastActivityOf, type Message, type Session } from '../domain/session';
import { microsToMs } from '../../kernel/domain/time';
import type { SessionChanges, SessionLookup, SessionStore, TurnClose, TurnLease } from '../app/conversation-ports';
import type { UsageRow } from '../domain/usage';
import { usageItem } from './dynamo-usage-store';
import { TABLE_DESIGN } from '../../kernel/adapters/table-design';
import { batchPut, queryAll, sendConditional, timeIdKey } from '../../kernel/adapters/dynamo-batch';
import {
  EMPTY_SESSIONS,
  SESSION_FIRST_VERSION,
  externalIdKey,
  externalIdPartition,
  messageFromItem,
  messageItem,
  sessionFromItem,
  sessionItem,
  sessionKey,
  sessionPk,
} from './dynamo-session-items';
import { listSessionsForRemovalByApp, removeSession } from './dynamo-session-removal';

/** A reservation outlives its lease by a day before TTL deletes it (nothing reads an expired one). */
const RESERVATION_TTL_MS = 24 * 60 * 60 * 1000;
const removeClause = (names: readonly string[]) => (names.length ? ` REMOVE ${names.join(', ')}` : '');

/**
 * The update of a touch from the session as it is at `version`: the touch clock and `last_message_at`
 * only move forward, the list positions follow the last activity, an empty session stays in the index of
 * empty ones; with `release`, the turn lease is given back in the same write.
 */
function touchOf(
  current: Session,
  version: number,
  input: { atUs: number; lastMessageAtUs: number | undefined; changes: SessionChanges; release?: boolean },
): { update: string; values: Record<string, unknown> } {
  const { changes } = input;
  const touchedAtUs = Math.max(current.touchedAtUs, input.atUs);
  const lastMsg = input.lastMessageAtUs === undefined ? current.lastMessageAtUs : Math.max(current.lastMessageAtUs ?? 0, input.lastMessageAtUs);
  const activity = lastActivityOf({ startedAtUs: current.startedAtUs, lastMessageAtUs: lastMsg, touchedAtUs });
  const position = timeIdKey(activity, current.id);
  const removed = [
    ...(lastMsg !== null ? ['gsi4pk', 'gsi4sk'] : []),
    ...(changes.openTurnId === null ? ['openTurnId'] : []),
    ...(input.release ? ['turnLeaseId', 'turnLeaseUntilUs'] : []),
  ];
  return {
    update:
      'SET touchedAtUs = :t, lastMessageAtUs = :m, lastActivityUs = :a, gsi1sk = :pos, gsi2sk = :pos, version = :next' +
      (changes.title !== undefined ? ', title = :title' : '') +
      (typeof changes.openTurnId === 'string' ? ', openTurnId = :turn' : '') +
      (lastMsg !== null ? '' : ', gsi4sk = :pos') +
      removeClause(removed),
    values: {
      ':t': touchedAtUs,
      ':m': lastMsg,
      ':a': activity,
      ':pos': position,
      ':v': version,
      ':next': version + 1,
      ...(changes.title !== undefined ? { ':title': changes.title } : {}),
      ...(typeof changes.openTurnId === 'string' ? { ':turn': changes.openTurnId } : {}),
    },
  };
}

export class DynamoSessionStore implements SessionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(s: Session, lease?: TurnLease): Promise<number> {
    // The lookup item first: one left by a create that failed points at no session, and lists skip it.
    if (s.externalId !== null) {
      const ref = externalIdKey({ ...s, externalId: s.externalId });
      await this.db.send(new PutCommand({ TableName: this.table, Item: { ...ref, type: 'session_external_id', sessionId: s.id } }));
    }
    if (!lease) {
      await this.db.send(new PutCommand({ TableName: this.table, Item: sessionItem(s), ConditionExpression: 'attribute_not_exists(pk)' }));
      return SESSION_FIRST_VERSION;
    }
    // Replaces the reservation of this id (only its first turn ever knew the id), keeping the lease.
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...sessionItem(s),
          turnLeaseId: lease.leaseId,
          turnLeaseUntilUs: lease.untilUs,
          ...(lease.openTurnId !== undefined ? { openTurnId: lease.openTurnId } : {}),
        },
        ConditionExpression: 'attribute_not_exists(pk) OR reserved = :true',
        ExpressionAttributeValues: { ':true': true },
      }),
    );
    return SESSION_FIRST_VERSION;
  }

  async reserve(id: string, appId: string, lease: TurnLease): Promise<void> {
    const expiresAtMs = microsToMs(lease.untilUs) + RESERVATION_TTL_MS;
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...sessionKey(id),
          type: 'session_reservation',
          reserved: true,
          appId,
          turnLeaseId: lease.leaseId,
          turnLeaseUntilUs: lease.untilUs,
          [TABLE_DESIGN.ttlAttribute]: Math.ceil(expiresAtMs / 1000),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async lookup(id: string): Promise<SessionLookup> {
    const item = await this.sessionItem(id);
    if (!item || item.deletedAtUs !== undefined) return undefined;
    if (item.reserved === true) return { reservedFor: String(item.appId) };
    return { session: sessionFromItem(item), openTurnId: typeof item.openTurnId === 'string' ? item.openTurnId : null, version: Number(item.version) };
  }

  async lookupWithMessages(id: string): Promise<{ found: SessionLookup; messages: Message[] }> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
      ExpressionAttributeValues: { ':pk': sessionPk(id), ':first': 'MSG#', ':last': 'SESSION' },
      ConsistentRead: true,
    });
    const item = items.find((i) => i.sk === 'SESSION');
    const messages = items.filter((i) => String(i.sk).startsWith('MSG#')).map(messageFromItem);
    if (!item || item.deletedAtUs !== undefined) return { found: undefined, messages: [] };
    if (item.reserved === true) return { found: { reservedFor: String(item.appId) }, messages: [] };
    const openTurnId = typeof item.openTurnId === 'string' ? item.openTurnId : null;
    return { found: { session: sessionFromItem(item), openTurnId, version: Number(item.version) }, messages };
  }

  unreserve(id: string, leaseId: string): Promise<boolean> {
    return sendConditional(
      this.db,
      new DeleteCommand({
        TableName: this.table,
        Key: sessionKey(id),
        ConditionExpression: 'reserved = :true AND turnLeaseId = :l',
        ExpressionAttributeValues: { ':true': true, ':l': leaseId },
      }),
    );
  }

  async get(id: string): Promise<Session | undefined> {
    const found = await this.lookup(id);
    return found && 'session' in found ? found.session : undefined;
  }

  async getForRemoval(id: string): Promise<Session | undefined> {
    const item = await this.sessionItem(id);
    return item && item.reserved !== true ? sessionFromItem(item) : undefined;
  }

  /** The session item as stored (a reservation, a live session, or one being removed), strongly consistent. */
  private async sessionItem(id: string): Promise<Record<string, unknown> | undefined> {
    return (await this.db.send(new GetCommand({ TableName: this.table, Key: sessionKey(id), ConsistentRead: true }))).Item;
  }

  async touch(id: string, atUs: number, lastMessageAtUs?: number, changes: SessionChanges = {}): Promise<boolean> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const item = await this.sessionItem(id);
      if (!item || item.deletedAtUs !== undefined) return false;
      const { update, values } = touchOf(sessionFromItem(item), Number(item.version), { atUs, lastMessageAtUs, changes });
      try {
        await this.db.send(
          new UpdateCommand({
            TableName: this.table,
            Key: sessionKey(id),
            UpdateExpression: update,
            ConditionExpression: 'version = :v AND attribute_not_exists(deletedAtUs)',
            ExpressionAttributeValues: values,
          }),
        );
        return true;
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException)) throw err;
      }
    }
    throw new Error(`session ${id}: too much contention on touch`);
  }

  closeTurn(id: string, close: TurnClose): Promise<boolean> {
    const { update, values } = touchOf(close.session, close.version, {
      atUs: close.atUs,
      lastMessageAtUs: close.lastMessageAtUs,
      changes: { openTurnId: null },
      release: true,
    });
    return this.conditionalUpdate({
      id,
      update,
      condition: 'version = :v AND turnLeaseId = :l AND attribute_not_exists(deletedAtUs)',
      values: { ...values, ':l': close.leaseId },
    });
  }

  private conditionalUpdate(input: { id: string; update: string; condition: string; values: Record<string, unknown> }): Promise<boolean> {
    return sendConditional(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: sessionKey(input.id),
        UpdateExpression: input.update,
        ConditionExpression: input.condition,
        ExpressionAttributeValues: input.values,
      }),
    );
  }

  /** One conditional write on the session item; `version` is not touched, so leases never race the touch clock. */
  acquireTurnLease(id: string, leaseId: string, nowUs: number, untilUs: number, appId?: string, openTurnId?: string): Promise<boolean> {
    return this.conditionalUpdate({
      id,
      update: `SET turnLeaseId = :l, turnLeaseUntilUs = :u${openTurnId !== undefined ? ', openTurnId = :turn' : ''}`,
      condition:
        'attribute_exists(pk) AND attribute_not_exists(deletedAtUs) AND (attribute_not_exists(turnLeaseUntilUs) OR turnLeaseUntilUs < :now)' +
        (appId !== undefined ? ' AND appId = :app' : '') +
        (openTurnId !== undefined ? ' AND attribute_not_exists(openTurnId) AND attribute_not_exists(reserved)' : ''),
      values: {
        ':l': leaseId,
        ':u': untilUs,
        ':now': nowUs,
        ...(appId !== undefined ? { ':app': appId } : {}),
        ...(openTurnId !== undefined ? { ':turn': openTurnId } : {}),
      },
    });
  }

  openTurn(id: string, leaseId: string, turnId: string): Promise<boolean> {
    return this.conditionalUpdate({
      id,
      update: 'SET openTurnId = :turn',
      condition: 'turnLeaseId = :l AND attribute_not_exists(openTurnId) AND attribute_not_exists(deletedAtUs)',
      values: { ':l': leaseId, ':turn': turnId },
    });
  }

  renewTurnLease(id: string, leaseId: string, untilUs: number): Promise<boolean> {
    return this.conditionalUpdate({ id, update: 'SET turnLeaseUntilUs = :u', condition: 'turnLeaseId = :l', values: { ':l': leaseId, ':u': untilUs } });
  }

  async releaseTurnLease(id: string, leaseId: string, openTurnId?: string): Promise<void> {
    if (
      openTurnId !== undefined &&
      (await this.conditionalUpdate({
        id,
        update: 'REMOVE turnLeaseId, turnLeaseUntilUs, openTurnId',
        condition: 'turnLeaseId = :l AND openTurnId = :t',
        values: { ':l': leaseId, ':t': openTurnId },
      }))
    )
      return;
    await this.conditionalUpdate({ id, update: 'REMOVE turnLeaseId, turnLeaseUntilUs', condition: 'turnLeaseId = :l', values: { ':l': leaseId } });
  }

  async putMessage(m: Message): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: messageItem(m) }));
  }

  async putMessages(messages: readonly Message[]): Promise<void> {
    if (messages.length === 1) return this.putMessage(messages[0]!);
    await batchPut(this.db, this.table, messages.map(messageItem));
  }

  async putTurnItems(messages: readonly Message[], usage: readonly UsageRow[]): Promise<void> {
    const items = [...messages.map(messageItem), ...usage.map(usageItem)];
    if (items.length === 1) await this.db.send(new PutCommand({ TableName: this.table, Item: items[0]! }));
    else if (items.length > 1) await batchPut(this.db, this.table, items);
  }

  async removeMessage(sessionId: string, message: Pick<Message, 'id' | 'createdAtUs'>): Promise<void> {
    await this.db.send(
      new DeleteCommand({ TableName: this.table, Key: { pk: sessionPk(sessionId), sk: `MSG#${timeIdKey(message.createdAtUs, message.id)}` } }),
    );
  }

  /**
   * The partition in one pass: the messages (`MSG#…`) and, after them, the session item with its open
   * turn; nothing sorted outside that range (file links, variables, stored responses) is read.
   */
  private async partition(sessionId: string): Promise<{ messages: Message[]; openTurnId: string | undefined; session: Session | undefined }> {
    const messages: Message[] = [];
    let openTurnId: string | undefined;
    let session: Session | undefined;
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
      ExpressionAttributeValues: { ':pk': sessionPk(sessionId), ':first': 'MSG#', ':last': 'SESSION' },
      ConsistentRead: true,
    });
    for (const item of items) {
      if (String(item.sk).startsWith('MSG#')) messages.push(messageFromItem(item));
      else if (item.sk === 'SESSION') {
        // A reservation (a first turn not recorded yet) and a session being removed are no session, as for get().
        if (item.reserved !== true && item.deletedAtUs === undefined) session = sessionFromItem(item);
        if (typeof item.openTurnId === 'string') openTurnId = item.openTurnId;
      }
    }
    return { messages, openTurnId, session };
  }

  async listMessages(sessionId: string): Promise<Message[]> {
    const { messages, openTurnId } = await this.partition(sessionId);
    return openTurnId ? messages.filter((m) => m.turnId !== openTurnId) : messages;
  }

  async transcript(sessionId: string): Promise<{ session: Session; messages: Message[] } | undefined> {
    const { messages, openTurnId, session } = await this.partition(sessionId);
    if (!session) return undefined;
    return { session, messages: openTurnId ? messages.filter((m) => m.turnId !== openTurnId) : messages };
  }

  async discardOpenTurn(sessionId: string, openTurnId: string): Promise<void> {
    const { messages } = await this.partition(sessionId);
    for (const m of messages.filter((x) => x.turnId === openTurnId)) await this.removeMessage(sessionId, m);
    // Closed only once its messages are gone; a crash in between leaves it open, and the next turn repeats this.
    await this.conditionalUpdate({ id: sessionId, update: 'REMOVE openTurnId', condition: 'openTurnId = :t', values: { ':t': openTurnId } });
  }

  remove(id: string, atUs: number): Promise<void> {
    return removeSession(this.db, this.table, id, atUs);
  }

  listForRemovalByApp(appId: string, limit: number): Promise<Session[]> {
    return listSessionsForRemovalByApp(this.db, this.table, appId, limit);
  }

  async listOfConsumer(consumerId: string): Promise<Session[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk',
      FilterExpression: 'attribute_not_exists(deletedAtUs)',
      ExpressionAttributeValues: { ':pk': `CONSSESS#${consumerId}` },
    });
    return items.map(sessionFromItem);
  }

  async listByExternalId(orgId: string, externalId: string): Promise<Session[]> {
    const refs = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': externalIdPartition(orgId, externalId) },
    });
    const found = await Promise.all(refs.map((ref) => this.get(String(ref.sessionId))));
    return found.filter((s): s is Session => s !== undefined && s.orgId === orgId && s.externalId === externalId);
  }

  async listByConsumer(consumerId: string): Promise<Session[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk',
      ExpressionAttributeValues: { ':pk': `CONSSESS#${consumerId}` },
    });
    return items.map(sessionFromItem);
  }

  async listEmptyInactiveBefore(beforeUs: number, limit: number): Promise<Session[]> {
    const res = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi4',
        KeyConditionExpression: 'gsi4pk = :pk AND gsi4sk < :before',
        ExpressionAttributeValues: { ':pk': EMPTY_SESSIONS, ':before': timeIdKey(beforeUs, '') },
        Limit: limit,
      }),
    );
    return (res.Items ?? []).map(sessionFromItem);
  }
}
