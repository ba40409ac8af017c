/**
 * `npm run bench -- chat-load`: 100 concurrent connections drive POST /api/v1/chat/completions at the
 * local platform for 60 s (BENCH_CHAT_LOAD_SECONDS, BENCH_CHAT_LOAD_CONNECTIONS to change), mixing new
 * sessions, continued sessions (each connection's own, and one hot session all of them share) and
 * streamed turns, over loopback with the offline model. Prints throughput, p50/p99 of the 200s, the
 * count of each status, and a final check of what was recorded: every 200 turn exactly once (lost,
 * duplicated), and nothing of a turn whose answer was an error (phantom). Beside it, a bare GetItem on
 * the same client measured in the same run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startPlatform } from '../functions/local/local-platform';
import { percentile, table, timeSamples } from './stats';

interface Sent {
  readonly sessionId?: string;
  readonly content: string;
  readonly status: number;
  readonly answeredSessionId?: string;
}

export async function benchChatLoad(): Promise<void> {
  const seconds = Number(process.env.BENCH_CHAT_LOAD_SECONDS ?? 60);
  const connections = Number(process.env.BENCH_CHAT_LOAD_CONNECTIONS ?? 100);
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-'));
  const p = await startPlatform({ dataDir, persist: false, timers: false, seed: false, logger: new Logger({ logLevel: 'SILENT' }) });
  const admin = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${p.baseUrl}/admin/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${p.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return ((await res.json()) as { data: Record<string, unknown> }).data;
  };
  const store = p.deps.sessions as unknown as { db?: DynamoDBDocumentClient; table?: string };
  if (!store.db || !store.table) throw new Error('the session store no longer exposes db/table: update bench/chat-load.bench.ts');
  const { db, table: tableName } = store;
  try {
    const org = await admin('POST', '/orgs', { name: 'load', plan: 'paid' });
    const app = await admin('POST', `/orgs/${String(org.id)}/apps`, { name: 'Load Bot' });
    const model = String(app.appNameId);
    // 120 turns a minute per key: a fresh key every 100 turns keeps the limit out of the measurement.
    let key = '';
    let used = 100;
    let keyPromise: Promise<string> | undefined;
    const nextKey = async (): Promise<string> => {
      if (used >= 100) {
        keyPromise ??= admin('POST', `/apps/${String(app.id)}/chat-keys`, {}).then((k) => {
          key = String(k.key);
          used = 0;
          keyPromise = undefined;
          return key;
        });
        await keyPromise;
      }
      used++;
      return key;
    };
    const bare = await timeSamples(() => db.send(new GetCommand({ TableName: tableName, Key: { pk: `APP#${String(app.id)}`, sk: 'APP' } })), 20, 200);

    const sent: Sent[] = [];
    const latencies: number[] = [];
    let counter = 0;
    const turn = async (stream: boolean, sessionId?: string): Promise<string | undefined> => {
      const content = `load turn ${++counter}`;
      const t0 = performance.now();
      let status = 0;
      let answered: string | undefined;
      try {
        const res = await fetch(`${p.baseUrl}/api/v1/chat/completions`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${await nextKey()}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            model,
            messages: [{ role: 'user', content }],
            ...(sessionId ? { chatSessionId: sessionId } : {}),
            ...(stream ? { stream: true } : {}),
          }),
        });
        const text = await res.text();
        status = res.status;
        answered = res.headers.get('x-chat-session-id') ?? undefined;
        // A stream that failed after its first byte still says 200: count it as the error it is.
        if (stream && status === 200 && !text.trimEnd().endsWith('data: [DONE]')) status = 599;
        if (stream && status === 200 && text.includes('"error"')) status = 598;
      } catch {
        status = 0; // connection failure
      }
      if (status === 200) latencies.push(performance.now() - t0);
      sent.push({ ...(sessionId ? { sessionId } : {}), content, status, ...(answered ? { answeredSessionId: answered } : {}) });
      return status === 200 ? answered : undefined;
    };

    const hot = await turn(false);
    const started = performance.now();
    const deadline = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: connections }, async (_, c) => {
        let own: string | undefined;
        for (let i = 0; performance.now() < deadline; i++) {
          const stream = i % 3 === 2;
          const pick = (c + i) % 5;
          if (pick === 0 || !own) own = (await turn(stream)) ?? own;
          else if (pick === 4) await turn(stream, hot);
          else await turn(stream, own);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;

    // What was recorded: every session any turn named or was answered with, read as the export reads it.
    const sessionIds = new Set(sent.flatMap((s) => [s.sessionId, s.answeredSessionId]).filter((x): x is string => !!x));
    const recorded = new Map<string, number>();
    for (const id of sessionIds) {
      for (const m of await p.deps.sessions.listMessages(id)) if (m.role === 'user') recorded.set(m.content, (recorded.get(m.content) ?? 0) + 1);
    }
    const ok = sent.filter((s) => s.status === 200);
    const lost = ok.filter((s) => !recorded.has(s.content)).length;
    const duplicated = ok.filter((s) => (recorded.get(s.content) ?? 0) > 1).length;
    const phantom = sent.filter((s) => s.status !== 200 && recorded.has(s.content)).length;
    const byStatus = new Map<number, number>();
    for (const s of sent) byStatus.set(s.status, (byStatus.get(s.status) ?? 0) + 1);

    console.log(
      `\n${connections} connections for ${seconds} s on loopback (offline model); new sessions, own sessions, one shared hot session; every third turn streamed\n`,
    );
    table([
      {
        turns: sent.length,
        'turns/s': (sent.length / elapsed).toFixed(1),
        '200/s': (ok.length / elapsed).toFixed(1),
        'p50 ms (200)': percentile(latencies, 50).toFixed(1),
        'p99 ms (200)': percentile(latencies, 99).toFixed(1),
        'bare GetItem p50 ms': percentile(bare, 50).toFixed(2),
        'p50 x bare': (percentile(latencies, 50) / percentile(bare, 50)).toFixed(1),
      },
    ]);
    console.log('');
    table(
      [...byStatus]
        .sort((a, b) => a[0] - b[0])
        .map(([status, count]) => ({ status: status === 0 ? 'connection failed' : status >= 598 ? `${status} (stream error)` : String(status), count })),
    );
    console.log('');
    table([
      {
        '5xx': sent.filter((s) => s.status >= 500).length,
        'lost (200 not recorded)': lost,
        'duplicated (200 recorded twice)': duplicated,
        'phantom (error recorded)': phantom,
      },
    ]);
  } finally {
    await p.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
