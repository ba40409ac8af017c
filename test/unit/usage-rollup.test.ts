/**
 * The usage rollup job and the usage view over the production DynamoDB adapters (embedded DynamoDB):
 * over random sequences of usage writes, clock moves and job runs (fast-check, fixed seed), some runs
 * crashing at a random write and run again, the view always equals a naive sum of the rows created
 * before its `asOf`, and at the end every day is closed with day buckets equal to the naive day sums.
 * Also: a row restamped out of the open hour leaves no bucket behind, the job walks the orgs in turns,
 * and the view refuses a bad range.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoUsageRollupStore } from '../../functions/conversations/adapters/dynamo-usage-rollup-store';
import { DynamoUsageStore } from '../../functions/conversations/adapters/dynamo-usage-store';
import { rollUpOrgUsage, rollUpUsage, type UsageRollupDeps } from '../../functions/conversations/app/roll-up-usage';
import type { UsageRollupStore } from '../../functions/conversations/app/usage-rollup-ports';
import { usageTotals, type UsageTotalsView } from '../../functions/conversations/app/usage-totals';
import { dayOf, HOUR_US } from '../../functions/conversations/domain/usage-buckets';
import type { UsageRow } from '../../functions/conversations/domain/usage';
import { DynamoOrgStore } from '../../functions/tenancy/adapters/dynamo-org-store';
import { TestClock } from '../support/clock';
import { outcome } from '../support/domain-error';
import { startTestTable, type TestTable } from '../support/dynamo';
import { CrashingRollupStore, naiveView } from '../support/usage-rollup';

const DELAY_MS = 30_000;
const APPS = ['app-a', 'app-b'];
const MODELS = ['offline', 'amazon.nova-lite-v1:0'];

const op = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      n: fc.integer({ min: 1, max: 3 }),
      app: fc.nat(1),
      model: fc.nat(1),
      pico: fc.bigInt({ min: 0n, max: 10n ** 13n }),
      tokens: fc.nat(5000),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.oneof(fc.integer({ min: 1, max: 60_000 }), fc.integer({ min: 60_000, max: 5 * 3_600_000 })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('run' as const),
      crashAt: fc.oneof(fc.constant(undefined), fc.integer({ min: 1, max: 4 })),
      budget: fc.constantFrom(2, 5, 50_000),
    }),
  },
);

describe('usage rollup', () => {
  let t: TestTable;
  let store: DynamoUsageRollupStore;
  let usage: DynamoUsageStore;
  let orgs: DynamoOrgStore;
  let orgSeq = 0;
  beforeAll(async () => {
    t = await startTestTable();
    store = new DynamoUsageRollupStore(t.db, t.table);
    usage = new DynamoUsageStore(t.db, t.table);
    orgs = new DynamoOrgStore(t.db, t.table);
  });
  afterAll(() => t.stop());

  const depsWith = (clock: TestClock, usageRollups: UsageRollupStore = store): UsageRollupDeps => ({
    usageRollups,
    orgs,
    clock,
    settings: { visibilityDelayMs: DELAY_MS },
  });

  async function writeRow(clock: TestClock, orgId: string, appId: string, model: string, tokens: number, costUsd: string): Promise<UsageRow> {
    const row: UsageRow = {
      id: await usage.nextId(),
      orgId,
      appId,
      sessionId: null,
      consumerId: null,
      model,
      source: 'chat',
      inputTokens: tokens,
      outputTokens: tokens * 2,
      cacheReadInputTokens: tokens % 7,
      cacheCreationInputTokens: tokens % 3,
      costUsd,
      createdAtUs: clock.nowUs(),
    };
    await usage.put(row);
    return row;
  }

  async function view(orgId: string, from: string, to: string): Promise<UsageTotalsView> {
    return usageTotals({ usageRollups: store }, { orgId, from, to });
  }

  it('always counts exactly the rows before asOf, through crashes and re-runs, and closes every day (seeded)', async () => {
    let crashes = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 8, maxLength: 40 }), fc.integer({ min: 0, max: 23 }), async (ops, startHour) => {
        const orgId = `org-prop-${++orgSeq}`;
        const clock = new TestClock(new Date(Date.UTC(2026, 1, 27, startHour, 40)).toISOString(), false);
        const firstDay = dayOf(clock.nowUs());
        const rows: UsageRow[] = [];
        const check = async () => {
          const progress = await store.progress(orgId);
          const asOfUs = progress?.countedUntilUs ?? 0;
          const to = dayOf(clock.nowUs());
          expect(await view(orgId, firstDay, to)).toEqual(naiveView(rows, firstDay, to, asOfUs));
        };
        for (const x of ops) {
          if (x.kind === 'write') {
            for (let i = 0; i < x.n; i++) rows.push(await writeRow(clock, orgId, APPS[x.app]!, MODELS[x.model]!, x.tokens, formatPico(x.pico)));
          } else if (x.kind === 'advance') {
            clock.advance(x.ms);
          } else {
            const crashing = new CrashingRollupStore(store, x.crashAt);
            try {
              await rollUpOrgUsage(depsWith(clock, crashing), orgId, x.budget);
            } catch (err) {
              expect(crashing.crashed, String(err)).toBe(true);
              crashes++;
              await rollUpOrgUsage(depsWith(clock), orgId, x.budget);
            }
            await check();
          }
        }
        // A day and more later, runs until nothing is left to read: every day up to yesterday is closed.
        clock.advance(26 * 3_600_000);
        for (let i = 0; i < 200 && (await rollUpOrgUsage(depsWith(clock), orgId, 5)).rows > 0; i++);
        await check();
        const progress = await store.progress(orgId);
        if (rows.length === 0) return;
        expect(progress?.firstOpenDay).toBe(dayOf(clock.nowUs() - DELAY_MS * 1000));
        const closedTo = dayOf(clock.nowUs() - 24 * HOUR_US - DELAY_MS * 1000);
        const fromDays = await store.dayBuckets(orgId, firstDay, closedTo);
        const expected = naiveView(rows, firstDay, closedTo, Number.MAX_SAFE_INTEGER);
        const dayTotals = expected.days.flatMap((d) => d.byApp.map((b) => ({ period: d.date, ...b })));
        expect(fromDays).toEqual(dayTotals);
      }),
      { seed: 20261128, numRuns: 50 },
    );
    expect(crashes).toBeGreaterThan(20);
  }, 240_000);

  it('deletes the open hour’s bucket of a row that a late commit restamped into the next hour', async () => {
    const orgId = 'org-restamp';
    const clock = new TestClock('2026-03-02T10:59:00.000Z', false);
    const row = await writeRow(clock, orgId, 'app-a', 'offline', 10, '0.01');
    clock.advance(50_000);
    await rollUpOrgUsage(depsWith(clock), orgId);
    expect((await store.hourBuckets(orgId, '2026-03-02', '2026-03-02')).map((b) => b.period)).toEqual(['2026-03-02T10']);
    // The chat turn's write committed late: the row moves to a fresh time, in the next hour.
    clock.advance(20_000);
    const moved = await usage.restamp(row, clock.nowUs());
    await writeRow(clock, orgId, 'app-b', 'offline', 1, '0.02');
    clock.advance(60_000);
    await rollUpOrgUsage(depsWith(clock), orgId);
    const buckets = await store.hourBuckets(orgId, '2026-03-02', '2026-03-02');
    expect(buckets.map((b) => [b.period, b.appId, b.calls])).toEqual([
      ['2026-03-02T11', 'app-a', 1],
      ['2026-03-02T11', 'app-b', 1],
    ]);
    expect(hourOfUs(moved.createdAtUs)).toBe(11);
    expect((await view(orgId, '2026-03-02', '2026-03-02')).totals).toMatchObject({ calls: 2, costUsd: '0.03' });
  });

  it('walks the orgs a page at a time across runs, and counts an org with no usage as idle', async () => {
    const clock = new TestClock('2026-03-03T12:00:00.000Z', false);
    const created = clock.nowUs();
    const ids = ['org-walk-1', 'org-walk-2', 'org-walk-3'];
    for (const id of ids) await orgs.create({ id, name: id, plan: 'free', createdAtUs: created, updatedAtUs: created });
    for (const id of ids) await writeRow(clock, id, 'app-a', 'offline', 5, '0.10');
    clock.advance(60_000);
    await store.saveOrgCursor(undefined);
    const first = await rollUpUsage(depsWith(clock), { maxOrgs: 2 });
    expect(first).toMatchObject({ orgs: 2, rows: 2 });
    const second = await rollUpUsage(depsWith(clock), { maxOrgs: 2 });
    expect(second.orgs).toBeGreaterThanOrEqual(1);
    for (const id of ids) expect((await view(id, '2026-03-03', '2026-03-03')).totals).toMatchObject({ calls: 1, costUsd: '0.10' });
    // The walk started over: the next run visits the first orgs again; once their hour is final, nothing is read twice.
    clock.advance(3_600_000);
    expect(await rollUpUsage(depsWith(clock), { maxOrgs: 3 })).toMatchObject({ orgs: 3, rows: 3 });
    expect(await rollUpUsage(depsWith(clock), { maxOrgs: 3 })).toMatchObject({ orgs: 3, rows: 0, hourBuckets: 0 });
    for (const id of ids) expect((await view(id, '2026-03-03', '2026-03-03')).totals).toMatchObject({ calls: 1, costUsd: '0.10' });
  });

  it('rolls up the other orgs when one fails, then fails the run naming it', async () => {
    const clock = new TestClock('2026-03-04T12:00:00.000Z', false);
    const created = clock.nowUs();
    const ids = ['org-fail-1', 'org-fail-2', 'org-fail-3'];
    for (const id of ids) await orgs.create({ id, name: id, plan: 'free', createdAtUs: created, updatedAtUs: created });
    for (const id of ids) await writeRow(clock, id, 'app-a', 'offline', 5, '0.25');
    clock.advance(60_000);
    await store.saveOrgCursor(undefined);
    const failing = new CrashingRollupStore(store, 1, 'org-fail-2');
    await expect(rollUpUsage(depsWith(clock, failing), { maxOrgs: 1000 })).rejects.toThrow(/org-fail-2/);
    expect((await view('org-fail-1', '2026-03-04', '2026-03-04')).totals).toMatchObject({ calls: 1, costUsd: '0.25' });
    expect((await view('org-fail-3', '2026-03-04', '2026-03-04')).totals).toMatchObject({ calls: 1, costUsd: '0.25' });
    expect((await view('org-fail-2', '2026-03-04', '2026-03-04')).totals.calls).toBe(0);
    // The next run (the schedule's retry) picks it up.
    await rollUpUsage(depsWith(clock), { maxOrgs: 1000 });
    expect((await view('org-fail-2', '2026-03-04', '2026-03-04')).totals).toMatchObject({ calls: 1, costUsd: '0.25' });
  });

  it('answers a range with no rollup yet with zeros for every day and no asOf, and refuses bad ranges', async () => {
    const v = await view('org-none', '2026-03-01', '2026-03-03');
    expect(v.asOf).toBeNull();
    expect(v.days.map((d) => [d.date, d.totals.calls, d.totals.costUsd, d.byApp.length])).toEqual([
      ['2026-03-01', 0, '0.00', 0],
      ['2026-03-02', 0, '0.00', 0],
      ['2026-03-03', 0, '0.00', 0],
    ]);
    for (const [from, to] of [
      ['2026-03-02', '2026-03-01'],
      ['2026-02-30', '2026-03-01'],
      ['2026-3-01', '2026-03-01'],
      ['2025-01-01', '2026-02-05'],
    ] as const) {
      expect(await outcome(view('org-none', from, to)), `${from}..${to}`).toBe('bad_request');
    }
    expect(await outcome(view('org-none', '2025-01-01', '2026-02-04'))).toBe('ok');
  });
});

const formatPico = (pico: bigint) => `${pico / 10n ** 12n}.${(pico % 10n ** 12n).toString().padStart(12, '0')}`;
const hourOfUs = (us: number) => new Date(us / 1000).getUTCHours();
