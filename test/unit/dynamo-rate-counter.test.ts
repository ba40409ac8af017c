import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoRateCounter } from '../../functions/kernel/adapters/dynamo-rate-counter';
import { startTestTable, type TestTable } from '../support/dynamo';

const MINUTE = 60_000;
const W0 = Date.parse('2026-11-02T10:00:00.000Z');

describe('DynamoRateCounter', () => {
  let t: TestTable;
  let counter: DynamoRateCounter;
  beforeAll(async () => {
    t = await startTestTable();
    counter = new DynamoRateCounter(t.db, t.table);
  });
  afterAll(() => t.stop());

  it('counts the 121st hit of a window as 121, and a new window restarts at 1', async () => {
    for (let i = 1; i <= 120; i++) {
      const w = await counter.hit('key-a', MINUTE, W0 + i * 100);
      expect(w).toEqual({ count: i, windowStartMs: W0 });
    }
    expect(await counter.hit('key-a', MINUTE, W0 + MINUTE - 1)).toEqual({ count: 121, windowStartMs: W0 });
    expect(await counter.hit('key-a', MINUTE, W0 + MINUTE)).toEqual({ count: 1, windowStartMs: W0 + MINUTE });
    expect(await counter.hit('key-a', MINUTE, W0 + MINUTE + 59_999)).toEqual({ count: 2, windowStartMs: W0 + MINUTE });
  });

  it('counts concurrent hits exactly once each', async () => {
    const windows = await Promise.all(Array.from({ length: 121 }, () => counter.hit('key-b', MINUTE, W0 + 30_000)));
    expect(windows.map((w) => w.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 121 }, (_, i) => i + 1));
    expect(windows.every((w) => w.windowStartMs === W0)).toBe(true);
  });

  it('keeps subjects apart', async () => {
    expect((await counter.hit('key-c', MINUTE, W0)).count).toBe(1);
    expect((await counter.hit('key-d', MINUTE, W0)).count).toBe(1);
  });
});
