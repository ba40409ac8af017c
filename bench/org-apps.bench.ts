/**
 * GET /api/v1/org/apps end to end on the local platform: latency of the whole request path (HTTP,
 * Middy kit, key lookup, rate-limit counter, one GSI query) for orgs with 1, 10 and 100 apps.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { startPlatform } from '../functions/local/local-platform';
import { percentile, table } from './stats';

export async function benchOrgApps(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-'));
  const p = await startPlatform({ dataDir, persist: false, timers: false, seed: false, logger: new Logger({ logLevel: 'SILENT' }) });
  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${p.baseUrl}/admin/v1${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${p.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return ((await res.json()) as { data: { id: string; key: string } }).data;
  };
  const rows: Record<string, string | number>[] = [];
  try {
    for (const apps of [1, 10, 100]) {
      const org = await admin('/orgs', { name: `bench-${apps}`, plan: 'paid' });
      for (let i = 0; i < apps; i++) await admin(`/orgs/${org.id}/apps`, { name: `App ${i}` });
      // One key per 100 requests keeps the sample under the 120/min limit of a key.
      const samples: number[] = [];
      for (let k = 0; k < 3; k++) {
        const key = await admin(`/orgs/${org.id}/keys`, { scopes: ['apps:read'] });
        for (let i = 0; i < 100; i++) {
          const t0 = performance.now();
          const res = await fetch(`${p.baseUrl}/api/v1/org/apps`, { headers: { Authorization: `Bearer ${key.key}` } });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`unexpected ${res.status}`);
          samples.push(performance.now() - t0);
        }
      }
      rows.push({ apps, requests: samples.length, 'p50 ms': percentile(samples, 50).toFixed(2), 'p99 ms': percentile(samples, 99).toFixed(2) });
    }
  } finally {
    await p.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  table(rows);
}
