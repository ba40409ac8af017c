/**
 * For the export sync tests: what the platform really holds for an org, read straight from the table
 * (no visibility delay, no pagination) and shown in the export's wire shapes; the local copy of the
 * reference sync client in the same shape, and their differences; a transport over several org keys;
 * and two middlewares for the real DynamoDB client, a write delayer (slow writers) and a persistent fault.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { sessionFromItem } from '../../functions/conversations/adapters/dynamo-session-items';
import { usageFromItem } from '../../functions/conversations/adapters/dynamo-usage-store';
import { fetchTransport, type HttpTransport } from '../../functions/cli/export-sync/export-api';
import type { LocalCopy } from '../../functions/cli/export-sync/local-store';
import { exportMessage, exportSession, exportUsageRow } from '../../functions/export/domain/export-rows';
import type { TestPlatform } from './platform';
import type { PlatformTable } from './store';

/** The comparable form of an org's export: sessions (list row, transcript, zdr) and usage rows by id. */
export interface ExportImage {
  readonly sessions: Record<string, { session: unknown; messages: unknown[]; zdr: boolean }>;
  readonly usage: Record<string, unknown>;
}

const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

async function queryIndex(t: PlatformTable, pk: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await t.db.send(
      new QueryCommand({
        TableName: t.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: false,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every live session of the org with its transcript (tool markers included) and every usage row. */
export async function readTruth(p: TestPlatform, t: PlatformTable, orgId: string): Promise<ExportImage> {
  const sessions: ExportImage['sessions'] = {};
  const zdrOf = new Map<string, boolean>();
  for (const item of await queryIndex(t, `ORGSESS#${orgId}`)) {
    const s = sessionFromItem(item);
    if (!zdrOf.has(s.appId)) zdrOf.set(s.appId, (await p.deps.apps.get(s.appId))?.settings.zeroDataRetention ?? false);
    const zdr = zdrOf.get(s.appId)!;
    const messages = zdr ? [] : (await p.deps.sessions.listMessages(s.id)).map((m) => exportMessage(m, true));
    sessions[s.id] = plain({ session: exportSession(s), messages, zdr });
  }
  const usage: ExportImage['usage'] = {};
  for (const item of await queryIndex(t, `ORGUSAGE#${orgId}`)) {
    const u = usageFromItem(item);
    usage[String(u.id)] = plain(exportUsageRow(u));
  }
  return { sessions, usage };
}

/** The sync client's copy in the same shape. */
export function imageOf(copy: LocalCopy): ExportImage {
  const sessions: ExportImage['sessions'] = {};
  for (const [id, s] of copy.sessions) sessions[id] = plain({ session: s.session, messages: [...s.messages], zdr: s.zdr });
  const usage: ExportImage['usage'] = {};
  for (const [id, u] of copy.usage) usage[id] = plain(u);
  return { sessions, usage };
}

/** Differences between the copy and the truth, one line each (at most `max`). */
export function differences(copy: ExportImage, truth: ExportImage, max = 20): string[] {
  const out: string[] = [];
  const compare = (kind: string, a: Record<string, unknown>, b: Record<string, unknown>) => {
    for (const id of Object.keys(b)) if (!(id in a)) out.push(`${kind} ${id}: missing from the copy: ${JSON.stringify(b[id]).slice(0, 300)}`);
    for (const id of Object.keys(a)) if (!(id in b)) out.push(`${kind} ${id}: in the copy but not in the truth`);
    for (const id of Object.keys(b)) {
      if (id in a && JSON.stringify(a[id]) !== JSON.stringify(b[id]))
        out.push(`${kind} ${id}: copy ${JSON.stringify(a[id]).slice(0, 400)} != truth ${JSON.stringify(b[id]).slice(0, 400)}`);
    }
  };
  compare('session', copy.sessions, truth.sessions);
  compare('usage', copy.usage, truth.usage);
  return out.slice(0, max);
}

/**
 * The sync client's transport over several keys of one org, in turn: at 120 requests a minute per key,
 * a single key would turn most of a convergence run into Retry-After waits instead of passes.
 */
export function rotatingTransport(baseUrl: string, keys: readonly string[]): HttpTransport {
  const transports = keys.map((k) => fetchTransport(baseUrl, k));
  let next = 0;
  const pick = () => transports[next++ % transports.length]!;
  return {
    get: (pathAndQuery) => pick().get(pathAndQuery),
    post: (pathAndQuery, body) => pick().post!(pathAndQuery, body),
    download: (url) => pick().download!(url),
  };
}

/** The item type of a write, whether the middleware sees the document or the marshalled form. */
export function itemType(input: Record<string, unknown>): unknown {
  const type = (input.Item as { type?: unknown } | undefined)?.type;
  return typeof type === 'object' && type !== null ? (type as { S?: unknown }).S : type;
}

export interface WriteDelay {
  /** Writes delayed so far. */
  readonly delayed: number;
  remove(): void;
}

/**
 * Slow writers: every `every`-th DynamoDB command that `match`es waits `delayMs` before it is sent, so
 * a write whose time was stamped before the call commits that much later. Sits in the real client's
 * middleware stack, in front of the real adapters, like injectFault.
 */
export function delayWrites(
  t: PlatformTable,
  opts: { delayMs: (n: number) => number; every: number; match: (command: string, input: Record<string, unknown>) => boolean },
): WriteDelay {
  const name = `test-delay-${Math.random().toString(36).slice(2)}`;
  const state = { seen: 0, delayed: 0 };
  t.db.middlewareStack.add(
    (next, context) => async (args) => {
      if (opts.match(String(context.commandName), args.input as Record<string, unknown>) && ++state.seen % opts.every === 0) {
        state.delayed++;
        await new Promise((r) => setTimeout(r, opts.delayMs(state.delayed)));
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    get delayed() {
      return state.delayed;
    },
    remove: () => {
      t.db.middlewareStack.remove(name);
    },
  };
}

/**
 * A persistent fault: every DynamoDB command that `match`es fails before it reaches the table until
 * removed (injectFault fires once, and the sync client retries a single 500).
 */
export function failCommands(
  t: PlatformTable,
  match: (command: string, input: Record<string, unknown>) => boolean,
): { readonly fired: number; remove(): void } {
  const name = `test-fail-${Math.random().toString(36).slice(2)}`;
  const state = { fired: 0 };
  t.db.middlewareStack.add(
    (next, context) => async (args) => {
      if (match(String(context.commandName), args.input as Record<string, unknown>)) {
        state.fired++;
        throw new Error(`injected persistent fault #${state.fired}`);
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    get fired() {
      return state.fired;
    },
    remove: () => {
      t.db.middlewareStack.remove(name);
    },
  };
}
