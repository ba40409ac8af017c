/** Percentiles of a sample, in the sample's unit. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function table(rows: Record<string, string | number>[]): void {
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0]!);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => `| ${cells.map((s, i) => s.padEnd(width[i]!)).join(' | ')} |`;
  console.log(line(cols));
  console.log(`|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(cols.map((c) => String(r[c]))));
}

/** Milliseconds of `samples` sequential runs of `op`, after `warmup` runs outside the sample (a bare baseline). */
export async function timeSamples(op: () => Promise<unknown>, warmup = 20, samples = 200): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await op();
  const xs: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await op();
    xs.push(performance.now() - t0);
  }
  return xs;
}
