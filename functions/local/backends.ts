/**
 * The embedded backends of the local platform (docs/design.md §1): dynalite (DynamoDB API, LevelDB under the
 * data directory), s3rver (S3 API, files under the data directory) and fauxqs (SQS API, in memory).
 * They run on a worker thread (backends-worker.mjs): parsing, checking and storing every call the adapters
 * make then takes the other core instead of the event loop the HTTP server answers on. Each listens on an
 * ephemeral loopback port; only this process talks to them.
 *
 * One thread serves every platform of the process (the tests start hundreds in a few processes): it loads
 * the three packages once, and while no backends run it holds nothing open and does not keep the process
 * alive. It ends with the process, so nothing outlives `npm start`.
 */
import { Worker } from 'node:worker_threads';
import type { AwsEndpoints } from '../kernel/adapters/aws-clients';

export interface Backends {
  readonly endpoints: Required<AwsEndpoints>;
  stop(): Promise<void>;
}

export const LOCAL_REGION = 'us-east-1';
/** s3rver accepts only this key pair; the other backends accept any. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

interface Reply {
  readonly set: number;
  readonly endpoints?: Required<AwsEndpoints>;
  readonly error?: string;
}

interface Request {
  readonly type: 'start' | 'stop';
  readonly set: number;
  readonly dataDir?: string;
  readonly persistTables?: boolean;
  readonly region?: string;
}

let thread: Worker | undefined;
let nextSet = 0;
/** The backend sets started on the thread and not yet stopped. */
const running = new Set<number>();
const pending = new Map<number, { readonly type: Request['type']; resolve(reply: Reply): void; reject(err: Error): void }>();

function keepAliveWhileBusy(worker: Worker): void {
  if (running.size > 0 || pending.size > 0) worker.ref();
  else worker.unref();
}

function backendsThread(): Worker {
  if (thread) return thread;
  // No TypeScript loader in the thread: the worker is plain JavaScript, and tsx's hooks would only slow its start.
  const worker = new Worker(new URL('./backends-worker.mjs', import.meta.url), { execArgv: [] });
  worker.on('message', (reply: Reply) => {
    const waiting = pending.get(reply.set);
    pending.delete(reply.set);
    if (waiting?.type === 'start' && !reply.error) running.add(reply.set);
    else running.delete(reply.set);
    keepAliveWhileBusy(worker);
    if (reply.error) waiting?.reject(new Error(`embedded backends: ${reply.error}`));
    else waiting?.resolve(reply);
  });
  const lost = (err: Error): boolean => {
    if (thread !== worker) return false;
    thread = undefined;
    const hadRunning = running.size > 0;
    for (const waiting of pending.values()) waiting.reject(err);
    pending.clear();
    running.clear();
    return hadRunning;
  };
  worker.on('error', (err) => {
    // Running platforms lost their tables, files and queues: fail as loudly as a crash of the process would.
    if (lost(err)) throw err;
  });
  worker.on('exit', (code) => {
    const err = new Error(`the embedded backends' thread exited (code ${code})`);
    if (lost(err)) throw err;
  });
  thread = worker;
  return worker;
}

function ask(request: Request): Promise<Reply> {
  const worker = backendsThread();
  const reply = new Promise<Reply>((resolve, reject) => pending.set(request.set, { type: request.type, resolve, reject }));
  keepAliveWhileBusy(worker);
  worker.postMessage(request);
  return reply;
}

/** `dataDir` persists tables and files; tables live in memory when `persistTables` is false (tests). */
export async function startBackends(dataDir: string, persistTables: boolean): Promise<Backends> {
  const set = ++nextSet;
  const { endpoints } = await ask({ type: 'start', set, dataDir, persistTables, region: LOCAL_REGION });
  let stopped: Promise<void> | undefined;
  return {
    endpoints: endpoints!,
    stop() {
      // A thread that died took its servers with it: nothing is left to stop.
      stopped ??= running.has(set) ? ask({ type: 'stop', set }).then(() => undefined) : Promise.resolve();
      return stopped;
    },
  };
}
