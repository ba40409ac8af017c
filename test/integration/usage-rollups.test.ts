/**
 * Usage rollups on the local platform: real chat turns and a few thousand usage rows of one org over
 * several days, the `usage-rollup` job run through the admin API, then the usage view: its totals equal
 * the rows', and it reads a few hundred items in three calls (counted on a wrapped DynamoDB client),
 * however many rows there are. A second run reads only the hour that is not final yet.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoUsageRollupStore } from '../../functions/conversations/adapters/dynamo-usage-rollup-store';
import { rollUpOrgUsage } from '../../functions/conversations/app/roll-up-usage';
import { usageTotals } from '../../functions/conversations/app/usage-totals';
import { dayOf, hourStartOf } from '../../functions/conversations/domain/usage-buckets';
import type { UsageRow } from '../../functions/conversations/domain/usage';
import { ENV_DEFAULTS } from '../../functions/kernel/env';
import { formatUsd } from '../../functions/tenancy/domain/pricing';
import { chatWorld, turn } from '../support/chat';
import { TestClock } from '../support/clock';
import type { TestPlatform } from '../support/platform';
import { usePlatformAndTable, type PlatformTable } from '../support/store';
import { naiveView } from '../support/usage-rollup';

const ROWS = 3000;
const DAY_US = 86_400_000_000;
const MODELS = ['offline', 'anthropic.claude-3-5-haiku-20241022-v1:0'];

/** A document client that counts calls and the items DynamoDB read for them (a Get reads one, a Query its ScannedCount). */
function countingClient(db: DynamoDBDocumentClient) {
  const counts = { calls: 0, items: 0 };
  const client = {
    send: async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
      const out = (await db.send(command as never)) as { Item?: unknown; ScannedCount?: number };
      counts.calls++;
      counts.items += out.ScannedCount ?? (out.Item ? 1 : 0);
      return out;
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, counts };
}

describe('usage rollups', () => {
  const clock = new TestClock('2026-06-06T09:30:00Z');
  let p: TestPlatform;
  let t: PlatformTable;
  usePlatformAndTable({ clock }, (started) => ({ p, t } = started));

  it('totals thousands of rows by day, app and model, and a view reads a few hundred items', async () => {
    const w = await chatWorld(p);
    await turn(p, w, 'Hello there');
    await turn(p, w, 'And again');
    // Earlier days' usage, as chat turns of three apps would have written it over five days.
    const apps = [w.appId, 'app-two', 'app-three'];
    const since = clock.nowUs() - 5 * DAY_US;
    const ids: number[] = [];
    for (let i = 0; i < ROWS; i += 100) ids.push(...(await Promise.all(Array.from({ length: 100 }, () => p.deps.usage.nextId()))));
    const written = ids.map(
      (id, i): UsageRow => ({
        id,
        orgId: w.orgId,
        appId: apps[i % 3]!,
        sessionId: null,
        consumerId: null,
        model: MODELS[i % 2]!,
        source: 'chat',
        inputTokens: 100 + (i % 17),
        outputTokens: 50 + (i % 13),
        cacheReadInputTokens: i % 5,
        cacheCreationInputTokens: i % 3,
        costUsd: formatUsd(BigInt(1 + ((i * 7919) % 100_003)) * 1_000_000n),
        createdAtUs: since + Math.floor((i * (5 * DAY_US - 60_000_000)) / ROWS),
      }),
    );
    for (let i = 0; i < written.length; i += 100) await Promise.all(written.slice(i, i + 100).map((r) => p.deps.usage.put(r)));
    clock.advance(2 * ENV_DEFAULTS.visibilityDelayMsLocal);

    const run = await p.admin('POST', '/jobs/usage-rollup/runs');
    expect(run.status, run.text).toBe(200);
    expect(run.body.data.result).toMatchObject({ rows: ROWS + 2 });

    const rollups = new DynamoUsageRollupStore(t.db, t.table);
    const rows: UsageRow[] = [];
    for await (const page of rollups.usageRows(w.orgId, 0, clock.nowUs())) rows.push(...page);
    expect(rows).toHaveLength(ROWS + 2);
    const progress = (await rollups.progress(w.orgId))!;
    expect(progress.countedUntilUs).toBeGreaterThan(Math.max(...rows.map((r) => r.createdAtUs)));

    const from = dayOf(since);
    const to = dayOf(clock.nowUs());
    const counted = countingClient(t.db);
    const view = await usageTotals({ usageRollups: new DynamoUsageRollupStore(counted.client, t.table) }, { orgId: w.orgId, from, to });
    expect(view).toEqual(naiveView(rows, from, to, progress.countedUntilUs));
    expect(view.totals.calls).toBe(ROWS + 2);
    expect(view.days.map((d) => d.byApp.length).slice(0, 5)).toEqual([6, 6, 6, 6, 6]);
    // One read of the progress, one Query of day buckets, one of today's hour buckets.
    expect(counted.counts.calls).toBe(3);
    expect(counted.counts.items).toBeLessThan(300);

    const appOnly = await usageTotals({ usageRollups: rollups }, { orgId: w.orgId, from, to, appId: 'app-two', model: MODELS[1] });
    expect(appOnly.totals).toEqual(
      naiveView(
        rows.filter((r) => r.appId === 'app-two' && r.model === MODELS[1]),
        from,
        to,
        progress.countedUntilUs,
      ).totals,
    );

    // A second run reads only the rows of the hour that is not final yet.
    const again = countingClient(t.db);
    const settings = { visibilityDelayMs: ENV_DEFAULTS.visibilityDelayMsLocal };
    const second = await rollUpOrgUsage({ usageRollups: new DynamoUsageRollupStore(again.client, t.table), orgs: p.deps.orgs, clock, settings }, w.orgId);
    const openHourRows = rows.filter((r) => r.createdAtUs >= hourStartOf(clock.nowUs())).length;
    expect(second.rows).toBe(openHourRows);
    expect(again.counts.items).toBeLessThanOrEqual(openHourRows + 1);
  }, 120_000);
});
