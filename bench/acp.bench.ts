/**
 * Area C checkout on the local platform: create and complete p50/p99 (as ACP clients send them, with
 * `API-Version` and a fresh `Idempotency-Key`, so each includes claiming and storing its key) beside a
 * bare DynamoDB GetItem and PutItem on the same client, and completes per second on one product with limited inventory under
 * contention (parallel completes on more sessions than units): how many won, how many were refused,
 * and whether anything was oversold.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ACP_VERSION } from '../functions/acp/domain/discovery';
import { startPlatform } from '../functions/local/local-platform';
import { percentile, table, timeSamples } from './stats';

const PAY = { payment_data: { handler_id: 'platform_test_card', instrument: { type: 'card', credential: { type: 'spt', token: 'spt_test_ok' } } } };

export async function benchAcp(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-acp-'));
  const p = await startPlatform({ dataDir, persist: false, timers: false, seed: false, logger: new Logger({ logLevel: 'SILENT' }) });
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${p.baseUrl}/admin/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${p.adminToken}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return ((await res.json()) as { data: Record<string, unknown> }).data;
  };
  try {
    const org = await admin('POST', '/orgs', { name: 'bench', plan: 'paid' });
    const app = await admin('POST', `/orgs/${String(org.id)}/apps`, { name: 'Bench Shop' });
    const appId = String(app.id);
    const unlimited = await admin('POST', `/apps/${appId}/products`, { title: 'E-book', price: 999, currency: 'usd' });
    // One key per 50 requests keeps the 60-a-minute limit out of the measurement.
    let key = '';
    let used = 50;
    const nextKey = async () => {
      if (used >= 50) {
        key = String((await admin('POST', `/apps/${appId}/acp-keys`, {})).key);
        used = 0;
      }
      used++;
      return key;
    };
    const call = async (path: string, body: unknown, token?: string) => {
      const t0 = performance.now();
      const res = await fetch(`${p.baseUrl}/acp/${appId}${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token ?? (await nextKey())}`,
          'Content-Type': 'application/json',
          'API-Version': ACP_VERSION,
          'Idempotency-Key': randomUUID(),
        },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { id?: string; status?: string };
      return { ms: performance.now() - t0, status: res.status, body: json };
    };
    const creates: number[] = [];
    const completes: number[] = [];
    for (let i = 0; i < 80; i++) {
      const created = await call('/checkout_sessions', { line_items: [{ product_id: unlimited.id, quantity: 1 }] });
      const completed = await call(`/checkout_sessions/${created.body.id}/complete`, PAY);
      if (created.status !== 201 || completed.body.status !== 'completed') throw new Error(`unexpected ${created.status} ${completed.status}`);
      if (i >= 10) {
        creates.push(created.ms);
        completes.push(completed.ms);
      }
    }
    const store = p.deps.sessions as unknown as { db: DynamoDBDocumentClient; table: string };
    const getItem = await timeSamples(() => store.db.send(new GetCommand({ TableName: store.table, Key: { pk: 'BENCH', sk: 'X' } })));
    const putItem = await timeSamples(() => store.db.send(new PutCommand({ TableName: store.table, Item: { pk: 'BENCH', sk: 'X', v: 1 } })));
    const g = percentile(getItem, 50);
    const w = percentile(putItem, 50);
    console.log('\nCheckout calls (70 samples each, sequential; bare = one DynamoDB call on the same client)\n');
    table([
      {
        call: 'POST /checkout_sessions',
        'p50 ms': percentile(creates, 50).toFixed(1),
        'p99 ms': percentile(creates, 99).toFixed(1),
        'x bare GetItem': (percentile(creates, 50) / g).toFixed(1),
        'x bare PutItem': (percentile(creates, 50) / w).toFixed(1),
      },
      {
        call: 'POST …/complete',
        'p50 ms': percentile(completes, 50).toFixed(1),
        'p99 ms': percentile(completes, 99).toFixed(1),
        'x bare GetItem': (percentile(completes, 50) / g).toFixed(1),
        'x bare PutItem': (percentile(completes, 50) / w).toFixed(1),
      },
      {
        call: 'bare GetItem / PutItem',
        'p50 ms': `${g.toFixed(2)} / ${w.toFixed(2)}`,
        'p99 ms': `${percentile(getItem, 99).toFixed(2)} / ${percentile(putItem, 99).toFixed(2)}`,
        'x bare GetItem': '1',
        'x bare PutItem': '1',
      },
    ]);

    // Contention: 60 sessions of one unit each on a product with 20 units, completed all at once.
    const units = 20;
    const limited = await admin('POST', `/apps/${appId}/products`, { title: 'Limited print', price: 5000, currency: 'usd', inventory: units });
    const sessions: { id: string; key: string }[] = [];
    let k = '';
    for (let i = 0; i < 60; i++) {
      // 20 sessions per key: 20 creates + 20 completes stay within its 60 a minute.
      if (i % 20 === 0) k = String((await admin('POST', `/apps/${appId}/acp-keys`, {})).key);
      sessions.push({ id: String((await call('/checkout_sessions', { line_items: [{ product_id: limited.id, quantity: 1 }] }, k)).body.id), key: k });
    }
    const t0 = performance.now();
    const results = await Promise.all(sessions.map((s) => call(`/checkout_sessions/${s.id}/complete`, PAY, s.key)));
    const seconds = (performance.now() - t0) / 1000;
    const won = results.filter((r) => r.body.status === 'completed').length;
    const outOfStock = results.filter((r) => r.status === 200 && r.body.status === 'not_ready_for_payment').length;
    const conflicts = results.filter((r) => r.status === 409).length;
    const other = results
      .filter((r) => !(r.body.status === 'completed' || (r.status === 200 && r.body.status === 'not_ready_for_payment') || r.status === 409))
      .map((r) => r.status);
    const left = ((await admin('GET', `/apps/${appId}/products`)) as unknown as { id: string; inventory: number }[]).find(
      (x) => x.id === limited.id,
    )!.inventory;
    console.log(`\nContention: 60 parallel completes on ${units} units\n`);
    table([
      {
        completes: results.length,
        seconds: seconds.toFixed(2),
        'completes/s': (results.length / seconds).toFixed(0),
        completed: won,
        'out of stock': outOfStock,
        '409 conflicts': conflicts,
        other: other.length ? other.join(',') : 0,
        'units left': left,
        oversold: won > units || left < 0 ? 'YES' : 'no',
      },
    ]);
  } finally {
    await p.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
