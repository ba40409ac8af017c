/**
 * POST /api/v1/chat/completions with the offline model on the local platform: the platform's own time
 * per turn (p50/p99), the time to the first streamed byte, and how both change from a new session to a
 * session with 200 earlier messages (loaded as history on every turn). Every turn's DynamoDB calls are
 * counted, and the turn's time per call is set beside a bare GetItem and PutItem measured in the same run.
 * Then the same streamed turns with a fixed delay added to every DynamoDB call (a round trip within one
 * AWS region): how much later the first byte comes, as a multiple of that delay, is how many calls the
 * turn makes one after another before the model's first token (locally each call is too quick to show).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startPlatform } from '../functions/local/local-platform';
import { percentile, table, timeSamples } from './stats';

const TURNS = 60;
/** What the delayed run adds to every DynamoDB call: about one round trip to DynamoDB within a region. */
const ROUND_TRIP_MS = 5;

export async function benchChatTurns(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-'));
  const p = await startPlatform({ dataDir, persist: false, timers: false, seed: false, logger: new Logger({ logLevel: 'SILENT' }) });
  const admin = async (method: string, path: string, body: unknown, contentType = 'application/json') => {
    const res = await fetch(`${p.baseUrl}/admin/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${p.adminToken}`, 'Content-Type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return ((await res.json()) as { data: Record<string, unknown> }).data;
  };
  const store = p.deps.sessions as unknown as { db?: DynamoDBDocumentClient; table?: string };
  if (!store.db || !store.table) throw new Error('the session store no longer exposes db/table: update bench/chat-turns.bench.ts');
  const { db, table: tableName } = store;
  const calls = new Map<string, number>();
  let delayMs = 0;
  // What the added delays really took (a timer fires a little late): the multiple is taken of their mean.
  const waited: number[] = [];
  db.middlewareStack.add(
    (next, context) => async (args) => {
      calls.set(context.commandName ?? '?', (calls.get(context.commandName ?? '?') ?? 0) + 1);
      if (delayMs) {
        const t0 = performance.now();
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        waited.push(performance.now() - t0);
      }
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
  const callCount = () => [...calls.values()].reduce((a, b) => a + b, 0);
  try {
    const org = await admin('POST', '/orgs', { name: 'bench', plan: 'paid' });
    const app = await admin('POST', `/orgs/${String(org.id)}/apps`, { name: 'Bench Bot' });
    const history = Array.from({ length: 200 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `earlier message ${i} `.repeat(8),
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    }));
    const imported = await admin(
      'POST',
      `/apps/${String(app.id)}/imports`,
      JSON.stringify({ session: { title: 'long', startedAt: '2026-01-01T00:00:00Z' }, consumer: null, messages: history }),
      'application/x-ndjson',
    );
    const longSession = (imported.sessionIds as string[])[0]!;
    let key = '';
    let used = 100;
    const nextKey = async () => {
      if (used >= 100) {
        key = String((await admin('POST', `/apps/${String(app.id)}/chat-keys`, {})).key);
        used = 0;
      }
      used++;
      return key;
    };
    const turn = async (stream: boolean, sessionId?: string) => {
      const t0 = performance.now();
      const res = await fetch(`${p.baseUrl}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${await nextKey()}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          model: app.appNameId,
          messages: [{ role: 'user', content: 'How are my orders doing today?' }],
          stream,
          ...(sessionId ? { chatSessionId: sessionId } : {}),
        }),
      });
      const reader = res.body!.getReader();
      const first = await reader.read();
      const ttfb = performance.now() - t0;
      let done = first.done;
      while (!done) done = (await reader.read()).done;
      if (res.status !== 200) throw new Error(`unexpected ${res.status}`);
      return { ttfb, total: performance.now() - t0 };
    };
    // Warm-up: JIT, connection pools and the cursor/credential caches, outside the samples.
    for (let i = 0; i < 20; i++) await turn(i % 2 === 0);
    // The bare baselines: one GetItem and one PutItem on the same client, no platform around them.
    const bare = async (op: () => Promise<unknown>) => percentile(await timeSamples(op), 50);
    const bareGet = await bare(() => db.send(new GetCommand({ TableName: tableName, Key: { pk: 'BENCH#probe', sk: 'BENCH' } })));
    const barePut = await bare(() => db.send(new PutCommand({ TableName: tableName, Item: { pk: 'BENCH#probe', sk: 'BENCH', n: 1 } })));
    const rows: Record<string, string | number>[] = [];
    for (const [label, session] of [
      ['new session', undefined],
      ['200 earlier messages', longSession],
    ] as const) {
      const plain: number[] = [];
      const perTurnCalls: number[] = [];
      calls.clear();
      const firstByte: number[] = [];
      const streamed: number[] = [];
      for (let i = 0; i < TURNS; i++) {
        const before = callCount();
        plain.push((await turn(false, session)).total);
        perTurnCalls.push(callCount() - before);
      }
      const signature = [...calls.entries()]
        .sort()
        .map(([name, n]) => `${name.replace(/Command$/, '')} ${(n / TURNS).toFixed(1)}`)
        .join(', ');
      for (let i = 0; i < TURNS; i++) {
        const r = await turn(true, session);
        firstByte.push(r.ttfb);
        streamed.push(r.total);
      }
      rows.push({
        session: label,
        turns: TURNS,
        'turn p50 ms': percentile(plain, 50).toFixed(1),
        'turn p99 ms': percentile(plain, 99).toFixed(1),
        'first byte p50 ms': percentile(firstByte, 50).toFixed(1),
        'first byte p99 ms': percentile(firstByte, 99).toFixed(1),
        'stream total p50 ms': percentile(streamed, 50).toFixed(1),
        'DynamoDB calls/turn (p50)': percentile(perTurnCalls, 50),
        'ms per call': (percentile(plain, 50) / percentile(perTurnCalls, 50)).toFixed(2),
        '× bare GetItem': (percentile(plain, 50) / percentile(perTurnCalls, 50) / bareGet).toFixed(2),
        'calls per plain turn (mean)': signature,
      });
    }
    table(rows);
    console.log(`\nbare GetItem p50 ${bareGet.toFixed(2)} ms, bare PutItem p50 ${barePut.toFixed(2)} ms (the same document client, no platform)`);
    console.log('\nThe session with history grows by two messages per turn (from 200 to ~440 over the run).');

    // The sequential path: the first streamed byte without and with a round trip added to every call.
    const sequential: Record<string, string | number>[] = [];
    for (const [label, session] of [
      ['new session', undefined],
      ['200+ earlier messages', longSession],
    ] as const) {
      const firstByte = async (delay: number) => {
        delayMs = delay;
        const out: number[] = [];
        for (let i = 0; i < TURNS / 2; i++) out.push((await turn(true, session)).ttfb);
        delayMs = 0;
        return percentile(out, 50);
      };
      const bare = await firstByte(0);
      waited.length = 0;
      const delayed = await firstByte(ROUND_TRIP_MS);
      const roundTrip = waited.reduce((a, b) => a + b, 0) / waited.length;
      sequential.push({
        session: label,
        'first byte p50 ms': bare.toFixed(1),
        [`first byte p50 ms, +${ROUND_TRIP_MS} ms a call`]: delayed.toFixed(1),
        'added ms': (delayed - bare).toFixed(1),
        'one added delay, mean ms': roundTrip.toFixed(2),
        '× the added delay (sequential calls before the first byte)': ((delayed - bare) / roundTrip).toFixed(2),
      });
    }
    table(sequential);
    console.log(`\nEvery DynamoDB call of the platform waited ${ROUND_TRIP_MS} ms more in the second column (a timer: its measured mean is the unit).`);
  } finally {
    await p.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
