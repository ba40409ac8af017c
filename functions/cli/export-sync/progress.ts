/**
 * Progress lines for long passes, meant for stderr (stdout carries the JSON summaries): while lists
 * are being read, at most one line every `everyMs` with every list in progress, and one line when each
 * list is done. Rows per second count from the list's first event of the run.
 */
import type { ListName, ProgressEvent } from './sync-client';

interface Running {
  readonly started: number;
  rows: number;
}

export function progressPrinter(
  write: (line: string) => void,
  opts: { readonly everyMs?: number; readonly now?: () => number } = {},
): (event: ProgressEvent) => void {
  const everyMs = opts.everyMs ?? 2000;
  const now = opts.now ?? Date.now;
  const running = new Map<ListName, Running>();
  let lastLine: number | undefined;
  const describe = (list: ListName, r: Running, t: number) => {
    const seconds = (t - r.started) / 1000;
    const rate = seconds > 0 ? Math.round(r.rows / seconds) : r.rows;
    return `${list} ${r.rows} rows, ${rate} rows/s (${seconds.toFixed(1)} s)`;
  };
  return (event) => {
    const t = now();
    lastLine ??= t;
    let r = running.get(event.list);
    if (!r) {
      r = { started: t, rows: 0 };
      running.set(event.list, r);
    }
    r.rows = event.rows;
    if (event.done) {
      running.delete(event.list);
      write(`export-sync: ${describe(event.list, r, t)}: done`);
    } else if (t - lastLine >= everyMs) {
      lastLine = t;
      write(`export-sync: ${[...running].map(([list, x]) => describe(list, x, t)).join('; ')}`);
    }
  };
}
