/**
 * Starts and stops the platform under fuzz as a child process (platform-child.ts), says whether it
 * is still alive and what it last wrote to stderr when it is not, and asks it for console sessions.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConsoleMemberAsk, ConsoleMemberGrant } from './platform-child';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '../..');
const STDERR_TAIL_BYTES = 4096;

export interface FuzzPlatform {
  readonly baseUrl: string;
  readonly host: string;
  readonly port: number;
  readonly adminToken: string;
  readonly pid: number;
  /** A new person with a console session, made a member of `orgId` with `role` when both are given (platform-child.ts). */
  consoleMember(ask: Omit<ConsoleMemberAsk, 'kind' | 'id'>): Promise<{ sessionId: string; memberId: string }>;
  /** Undefined while it runs; how it ended otherwise. */
  exit(): string | undefined;
  stderrTail(): string;
  stop(): Promise<void>;
}

export async function startFuzzPlatform(startTimeoutMs = 90_000): Promise<FuzzPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-fuzz-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(HERE, 'platform-child.ts'), dataDir], {
    cwd: REPO,
    // Its own process group: Ctrl-C on the fuzzer must not kill it mid-batch (the fuzzer stops it, over IPC).
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  let stderr = '';
  let exited: string | undefined;
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
  });
  const ended = new Promise<void>((done) =>
    child.once('exit', (code, signal) => {
      exited = signal ? `killed by ${signal}` : `exited with code ${code}`;
      rmSync(dataDir, { recursive: true, force: true });
      done();
    }),
  );
  const ready = await new Promise<{ baseUrl: string; adminToken: string }>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the platform did not start within ${startTimeoutMs} ms: ${stderr}`)), startTimeoutMs);
    child.once('message', (m) => {
      clearTimeout(timer);
      done(m as { baseUrl: string; adminToken: string });
    });
    void ended.then(() => {
      clearTimeout(timer);
      fail(new Error(`the platform ${exited} before it started: ${stderr}`));
    });
  });
  const asks = new Map<number, { done: (g: ConsoleMemberGrant) => void; fail: (e: Error) => void }>();
  child.on('message', (m: ConsoleMemberGrant) => {
    if (m?.kind !== 'consoleMember') return;
    asks.get(m.id)?.done(m);
    asks.delete(m.id);
  });
  void ended.then(() => {
    for (const ask of asks.values()) ask.fail(new Error(`the platform ${exited} before it answered a console member request`));
    asks.clear();
  });
  let lastAsk = 0;
  const url = new URL(ready.baseUrl);
  return {
    baseUrl: ready.baseUrl,
    host: url.hostname,
    port: Number(url.port),
    adminToken: ready.adminToken,
    pid: child.pid!,
    async consoleMember(ask) {
      const id = ++lastAsk;
      const grant = await new Promise<ConsoleMemberGrant>((done, fail) => {
        asks.set(id, { done, fail });
        child.send({ kind: 'consoleMember', id, ...ask } satisfies ConsoleMemberAsk);
      });
      if ('error' in grant) throw new Error(`fuzz setup: console member for ${ask.orgId ?? 'no org'}: ${grant.error}`);
      return { sessionId: grant.sessionId, memberId: grant.memberId };
    },
    exit: () => exited,
    stderrTail: () => stderr,
    async stop() {
      if (exited) return;
      // Disconnecting asks it to stop its backends; a stuck one is killed (only this child, by its own handle).
      child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await ended;
      clearTimeout(timer);
    },
  };
}
