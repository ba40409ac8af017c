/**
 * How failures read: one in full (seed, request number, operation, the replayable request, the answer),
 * or in one line once its kind has been shown a few times; and all of them grouped by class of hostile
 * input, then by what was mutated and which rule broke, with counts and the operations concerned.
 */
import type { FoundFailure } from './fuzz-run';
import { compact, describeRequest } from './hostile-request';

const RULE_TEXT: Record<FoundFailure['rule'], string> = {
  '5xx': '(a) 5xx',
  status: '(b) status',
  allow: '(b) 405 Allow',
  body: '(c) body',
  answer: '(d) no answer',
  liveness: '(d) platform down',
};

export function groupKey(f: FoundFailure): string {
  if (f.collateral) return 'platform: (d) no answer while another request brought the platform down';
  if (f.rule === 'liveness') return `platform: ${RULE_TEXT[f.rule]}${f.req ? ` (${f.req.cls}: ${f.req.variant})` : ''}`;
  return f.req ? `${f.req.cls}: ${f.req.variant} → ${RULE_TEXT[f.rule]}` : `platform: ${RULE_TEXT[f.rule]}`;
}

export function headline(f: FoundFailure): string {
  const what = f.req ? `${f.req.op} [${f.req.cls}: ${f.req.variant}]${f.rule === 'liveness' ? ' brings the platform down' : ''}` : 'platform';
  return `FAIL seed ${f.seed} #${f.n} ${what} ${RULE_TEXT[f.rule]}: ${f.message}`;
}

export function formatFailure(f: FoundFailure): string {
  if (!f.req) return headline(f);
  return [
    headline(f),
    describeRequest(f.req, f.source),
    `  answer: ${f.answer ?? '(none)'}`,
    `  replay: npm run fuzz -- --seed ${f.seed} --replay ${f.n}`,
  ].join('\n');
}

/** Prints each failure as found: in full the first `full` times per group, in one line after that. */
export function failurePrinter(print: (line: string) => void, full = 3): (f: FoundFailure) => void {
  const seen = new Map<string, number>();
  return (f) => {
    const key = `${groupKey(f)} ${f.req?.op ?? ''}`;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    print(count <= full ? formatFailure(f) : headline(f));
  };
}

/** Failures by class, then by mutation and rule: counts, operations and a few messages each. */
export function groupedReport(failures: readonly FoundFailure[], examples = 2): string {
  const groups = new Map<string, FoundFailure[]>();
  for (const f of failures) groups.set(groupKey(f), [...(groups.get(groupKey(f)) ?? []), f]);
  const lines: string[] = [];
  let cls = '';
  for (const key of [...groups.keys()].sort()) {
    const list = groups.get(key)!;
    const c = key.split(':')[0]!;
    if (c !== cls) lines.push(`${(cls = c)}:`);
    const ops = [...new Set(list.map((f) => f.req?.op ?? 'platform'))];
    lines.push(
      `  ${list.length} × ${key.slice(c.length + 2)}  (${ops.length > 4 ? `${ops.slice(0, 4).join(', ')} and ${ops.length - 4} more` : ops.join(', ')})`,
    );
    for (const f of list.slice(0, examples))
      lines.push(`      #${f.n} ${f.req ? `${compact(f.req.method, 40)} ${compact(f.req.target, 100)}` : ''} → ${f.message.slice(0, 240)}`);
  }
  return lines.join('\n');
}
