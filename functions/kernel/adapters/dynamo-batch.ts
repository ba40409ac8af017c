/** Batch writes, paged queries, conditional writes and key encodings shared by the DynamoDB adapters. */
import { type AttributeValue, BatchGetItemCommand, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  type DeleteCommand,
  PutCommand,
  QueryCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Micros } from '../domain/time';

/** Sends a conditional write; false when its condition did not hold (a lost race, not an error). */
export async function sendConditional(db: DynamoDBDocumentClient, command: PutCommand | UpdateCommand | DeleteCommand): Promise<boolean> {
  try {
    // The client's send is overloaded per command; each goes through the same call.
    await (command instanceof UpdateCommand ? db.send(command) : command instanceof PutCommand ? db.send(command) : db.send(command));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** Sends a conditional update that returns the new item (`ReturnValues: 'ALL_NEW'`); undefined when its condition did not hold. */
export async function updateIfMatched(
  db: DynamoDBDocumentClient,
  input: Omit<UpdateCommandInput, 'ReturnValues'>,
): Promise<Record<string, unknown> | undefined> {
  try {
    return (await db.send(new UpdateCommand({ ...input, ReturnValues: 'ALL_NEW' }))).Attributes;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return undefined;
    throw err;
  }
}

/** Deletes keys in batches of 25, retrying unprocessed items with a short backoff. */
export function batchDelete(db: DynamoDBDocumentClient, table: string, keys: Record<string, unknown>[]): Promise<void> {
  return batchWrite(
    db,
    table,
    keys.map((Key) => ({ DeleteRequest: { Key } })),
  );
}

/** Puts items in batches of 25 (each an idempotent single-item write, not a transaction), retrying unprocessed ones. */
export function batchPut(db: DynamoDBDocumentClient, table: string, items: readonly Record<string, unknown>[]): Promise<void> {
  return batchWrite(
    db,
    table,
    items.map((Item) => ({ PutRequest: { Item } })),
  );
}

/**
 * Reads items by key, strongly consistent, in one BatchGetItem per 100 keys, as raw attribute values (so
 * a large number keeps its digits), retrying unprocessed keys with a short backoff. The items come back
 * in no particular order, and a missing key has none.
 */
export async function batchGetRaw(
  db: DynamoDBDocumentClient,
  table: string,
  keys: readonly Record<string, AttributeValue>[],
): Promise<Record<string, AttributeValue>[]> {
  const found: Record<string, AttributeValue>[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let pending = keys.slice(i, i + 100);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 8) throw new Error('BatchGetItem kept returning unprocessed keys');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
      const res = await db.send(new BatchGetItemCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }));
      found.push(...(res.Responses?.[table] ?? []));
      pending = res.UnprocessedKeys?.[table]?.Keys ?? [];
    }
  }
  return found;
}

type WriteRequest = { DeleteRequest: { Key: Record<string, unknown> } } | { PutRequest: { Item: Record<string, unknown> } };

async function batchWrite(db: DynamoDBDocumentClient, table: string, all: readonly WriteRequest[]): Promise<void> {
  for (let i = 0; i < all.length; i += 25) {
    let requests = all.slice(i, i + 25);
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > 8) throw new Error('BatchWrite kept returning unprocessed items');
      if (attempt > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
      const res = await db.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
      requests = (res.UnprocessedItems?.[table] ?? []) as typeof requests;
    }
  }
}

/** A table key (`pk`, `sk`). */
export interface TableKey {
  readonly pk: string;
  readonly sk: string;
}

const keyId = (k: TableKey) => `${k.pk}\n${k.sk}`;

/**
 * Strongly consistent reads of independent items in one BatchGetItem (per 100 keys), retrying
 * unprocessed keys with a short backoff: `item(key)` is the stored item, undefined when there is none.
 * Repeated keys are read once (DynamoDB refuses a batch that names a key twice).
 */
export async function batchGetConsistent(
  db: DynamoDBDocumentClient,
  table: string,
  keys: readonly TableKey[],
): Promise<(key: TableKey) => Record<string, unknown> | undefined> {
  const distinct = [...new Map(keys.map((k) => [keyId(k), k])).values()];
  const raw = await batchGetRaw(
    db,
    table,
    distinct.map((k) => ({ pk: { S: k.pk }, sk: { S: k.sk } })),
  );
  const found = new Map(raw.map((r) => unmarshall(r)).map((item) => [keyId(item as unknown as TableKey), item]));
  return (key) => found.get(keyId(key));
}

/** Every item a Query matches, following `LastEvaluatedKey` page by page. */
export async function queryAll(db: DynamoDBDocumentClient, input: Omit<QueryCommandInput, 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(db, input)) items.push(...page.items);
  return items;
}

/**
 * A Query's pages, one read each, for a caller that acts page by page or stops early (breaking out
 * of the loop sends no further read); `next` is the page's `LastEvaluatedKey`. `from` is the key the
 * first read starts after (a keyset cursor's position), when there is one.
 */
export async function* queryPages(
  db: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'ExclusiveStartKey'>,
  from?: Record<string, unknown>,
): AsyncGenerator<{ items: Record<string, unknown>[]; next: Record<string, unknown> | undefined }> {
  let start: Record<string, unknown> | undefined = from;
  do {
    const res = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    start = res.LastEvaluatedKey;
    yield { items: res.Items ?? [], next: start };
  } while (start);
}

/*
 * Shared key encodings of the single table (docs/adr/0004-single-table-access-patterns.md). Sort keys
 * that order by time use fixed-width microseconds so string order equals numeric order.
 */

export const MICROS_WIDTH = 16;

export function padMicros(us: Micros): string {
  return String(Math.max(0, Math.floor(us))).padStart(MICROS_WIDTH, '0');
}

/** `<16-digit micros>#<id>`: the keyset position (sort value, id) of area A lists. */
export function timeIdKey(us: Micros, id: string): string {
  return `${padMicros(us)}#${id}`;
}

export function encodeCursor(key: Record<string, unknown> | undefined): string | undefined {
  return key ? Buffer.from(JSON.stringify(key), 'utf8').toString('base64url') : undefined;
}

export function decodeCursor(cursor: string | undefined): Record<string, unknown> | undefined {
  if (!cursor) return undefined;
  const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('bad internal cursor');
  return value as Record<string, unknown>;
}

export const TABLE_KEY = { pk: 'pk', sk: 'sk' } as const;

/** The named attributes an item has (absent ones stay absent): a stored record read back without its keys and index attributes. */
export function definedFields<T>(item: Record<string, unknown>, fields: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (item[f] !== undefined) out[f] = item[f];
  return out as T;
}

/** The named attributes of an item, an absent one as null: a record whose type spells its unset fields as null. */
export function fieldsOrNull<T>(item: Record<string, unknown>, fields: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = item[f] ?? null;
  return out as T;
}
