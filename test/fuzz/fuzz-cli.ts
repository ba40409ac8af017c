/**
 * `npm run fuzz -- --seconds N [--seed S] [--requests N] [--concurrency C] [--replay N]`: the hostile-
 * input suite for as long as asked, outside vitest. Prints each failure as it is found, progress every
 * few seconds, the failures grouped by class, and last one line:
 * `fuzz: <requests> requests, <failures> failures, seed <seed>, <seconds> s`.
 * Stops after N seconds (or N requests, or on Ctrl-C); exits 0 without failures, 1 with, 2 on misuse.
 */
import { parseArgs } from 'node:util';
import { failurePrinter, groupedReport } from './fuzz-report';
import { runFuzz } from './fuzz-run';
import { describeRequest, type HostileRequest } from './hostile-request';
import { pendingStatuses, loadModel } from './openapi-model';

const USAGE = 'usage: npm run fuzz -- --seconds N [--seed S] [--requests N] [--concurrency C] [--replay N]';

function numberOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || (name !== 'seed' && n < 0)) throw new Error(`--${name} must be an integer, got ${value}`);
  return n;
}

async function main(): Promise<number> {
  let options: { seconds?: number; seed: number; requests?: number; concurrency?: number; replay?: number };
  try {
    const { values } = parseArgs({
      options: {
        seconds: { type: 'string' },
        seed: { type: 'string' },
        requests: { type: 'string' },
        concurrency: { type: 'string' },
        replay: { type: 'string' },
      },
      strict: true,
    });
    options = {
      seconds: numberOption(values.seconds, 'seconds'),
      seed: numberOption(values.seed, 'seed') ?? Math.floor(Math.random() * 2 ** 31),
      requests: numberOption(values.requests, 'requests'),
      concurrency: numberOption(values.concurrency, 'concurrency'),
      replay: numberOption(values.replay, 'replay'),
    };
    if (options.seconds === undefined && options.requests === undefined && options.replay === undefined)
      throw new Error('give --seconds, --requests or --replay');
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }

  let interrupted = 0;
  process.on('SIGINT', () => {
    // One Ctrl-C can arrive twice (from the terminal and relayed by tsx): only a later one quits at once.
    if (interrupted && Date.now() - interrupted > 2000) process.exit(130);
    if (interrupted) return;
    interrupted = Date.now();
    console.log('fuzz: stopping after the requests in flight (Ctrl-C again to quit at once)');
  });
  for (const [op, statuses] of pendingStatuses(loadModel()))
    console.log(`note: the OpenAPI document does not list ${statuses.join(', ')} on ${op} yet; allowed as router answers`);
  const where =
    options.replay !== undefined
      ? `replaying request #${options.replay}`
      : options.seconds !== undefined
        ? `for ${options.seconds} s`
        : `for ${options.requests} requests`;
  console.log(`fuzz: seed ${options.seed}, ${where}; starting the platform`);

  let lastProgress = Date.now();
  const result = await runFuzz({
    seed: options.seed,
    ...(options.seconds !== undefined ? { seconds: options.seconds } : {}),
    ...(options.requests !== undefined ? { maxRequests: options.requests } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.replay !== undefined ? { only: options.replay } : {}),
    ...(options.replay !== undefined
      ? {
          onAnswer: (n: number, req: HostileRequest, source: string, answer: string) =>
            console.log(`#${n} ${req.op} [${req.cls}: ${req.variant}]\n${describeRequest(req, source)}\n  answer: ${answer}`),
        }
      : {}),
    onFailure: failurePrinter((line) => console.log(line), options.replay !== undefined ? 0 : 3),
    onBatch: ({ requests, failures, seconds }) => {
      if (Date.now() - lastProgress < 5000) return;
      lastProgress = Date.now();
      console.log(`fuzz: ${requests} requests, ${failures} failures, ${Math.round(seconds)} s…`);
    },
    shouldStop: () => interrupted > 0,
  });
  if (result.failures.length) console.log(`\nfailures by class:\n${groupedReport(result.failures)}\n`);
  console.log(`fuzz: ${result.requests} requests, ${result.failures.length} failures, seed ${options.seed}, ${Math.round(result.seconds)} s`);
  return result.failures.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(2);
  },
);
