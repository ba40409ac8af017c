/**
 * Direct reads of a running test platform's table, for lifecycle assertions the API does not (yet)
 * expose: tombstones by org, the org's session index, raw items. Also the fault injector.
 *
 * The platform does not publish its backend endpoints; its adapters share the one document client the
 * composition root built, so the helpers take that client from the session store.
 */
import { QueryCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Tombstone } from '../../functions/conversations/domain/tombstone';
import type { PlatformOptions, RunningPlatform } from '../../functions/local/local-platform';
import { usePlatform, type TestPlatform } from './platform';

export interface PlatformTable {
  readonly db: DynamoDBDocumentClient;
  readonly table: string;
}

export function tableOf(p: Pick<RunningPlatform, 'deps'>): PlatformTable {
  const store = p.deps.sessions as unknown as { db?: DynamoDBDocumentClient; table?: string };
  if (!store.db || !store.table) throw new Error('the session store no longer exposes db/table: update test/support/store.ts');
  return { db: store.db, table: store.table };
}

/** `usePlatform` for tests that also read the platform's table: `bind` receives both once it runs. */
export function usePlatformAndTable(opts: Partial<PlatformOptions>, bind: (started: { p: TestPlatform; t: PlatformTable }) => void): void {
  usePlatform(opts, (p) => bind({ p, t: tableOf(p) }));
}

async function queryAll(t: PlatformTable, input: { IndexName?: string; KeyConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> }) {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await t.db.send(new QueryCommand({ TableName: t.table, ...input, ExclusiveStartKey: start }));
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every tombstone of the org, from the org's tombstone index. */
export async function tombstonesOf(t: PlatformTable, orgId: string): Promise<Tombstone[]> {
  const items = await queryAll(t, { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `ORGTOMB#${orgId}` } });
  return items.map((i) => ({
    id: i.id as string,
    orgId: i.orgId as string,
    resourceType: i.resourceType as Tombstone['resourceType'],
    resourceId: i.resourceId as string,
    cause: i.cause as Tombstone['cause'],
    deletedAtUs: i.deletedAtUs as number,
  }));
}

/** Session ids in the org's export index (gsi1): what the org sessions list would page over. */
export async function orgSessionIds(t: PlatformTable, orgId: string): Promise<string[]> {
  const items = await queryAll(t, { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `ORGSESS#${orgId}` } });
  return items.map((i) => i.id as string);
}

/** Every item stored under a partition key (a session and its messages share `SESSION#<id>`). */
export async function itemsUnder(t: PlatformTable, pk: string): Promise<Record<string, unknown>[]> {
  return queryAll(t, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } });
}

/** Session reservations of an app's first chat turns (no index holds them: a scan, fine for a test table). */
export async function reservationsOf(t: PlatformTable, appId: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await t.db.send(
      new ScanCommand({
        TableName: t.table,
        FilterExpression: '#type = :r AND appId = :a',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':r': 'session_reservation', ':a': appId },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Items of an app's session and consumer indexes (gsi2), half-removed sessions included. */
export async function appLeftovers(t: PlatformTable, appId: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const pk of [`APPSESS#${appId}`, `APPSESSDEL#${appId}`, `APPCONS#${appId}`]) {
    out.push(...(await queryAll(t, { IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': pk } })));
  }
  return out;
}

export interface Fault {
  /** How many matching commands have been seen, and whether the fault fired. */
  readonly seen: number;
  readonly fired: boolean;
  remove(): void;
}

/**
 * Makes the `nth` DynamoDB command named `command` (low-level name, e.g. `DeleteItemCommand`) that also
 * satisfies `match` fail before it reaches the table, as a crash at that point would. The fault sits in
 * the real client's middleware stack, in front of the real adapters; it fires once.
 */
export function injectFault(
  t: PlatformTable,
  opts: { command: string; nth?: number; match?: (input: Record<string, unknown>) => boolean; name?: string },
): Fault {
  const name = opts.name ?? `test-fault-${Math.random().toString(36).slice(2)}`;
  const state = { seen: 0, fired: false };
  t.db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      if (!state.fired && context.commandName === opts.command && (opts.match?.(input) ?? true)) {
        state.seen++;
        if (state.seen === (opts.nth ?? 1)) {
          state.fired = true;
          throw new Error(`injected fault: ${opts.command} #${state.seen}`);
        }
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    get seen() {
      return state.seen;
    },
    get fired() {
      return state.fired;
    },
    remove: () => {
      t.db.middlewareStack.remove(name);
    },
  };
}

/**
 * Counts the DynamoDB calls of the platform by kind (`GetItem`, `BatchWriteItem`, …) on the document
 * client every adapter shares, from now on: `counts()` reads them sorted by name, `clear()` starts over.
 */
export function countCalls(t: PlatformTable): { counts(): Record<string, number>; clear(): void } {
  const calls = new Map<string, number>();
  t.db.middlewareStack.add(
    (next, context) => async (args) => {
      const name = (context.commandName ?? '?').replace(/Command$/, '');
      calls.set(name, (calls.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: `test-call-counter-${Math.random().toString(36).slice(2)}` },
  );
  return { counts: () => Object.fromEntries([...calls.entries()].sort()), clear: () => calls.clear() };
}
