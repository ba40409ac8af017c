/**
 * The upload service as its image runs it: the bundle built with the esbuild command of
 * docker/upload-service/Dockerfile (read from the Dockerfile itself, so a flag added there is a flag
 * the tests build with), started in a child Node process whose environment is the image's `ENV`, the
 * ECS container's variables from the synthesized template and what the test adds.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Template } from 'aws-cdk-lib/assertions';
import { resourcesOfType } from '../infra/platform-fixture';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCKERFILE = join(ROOT, 'docker/upload-service/Dockerfile');
export const UPLOAD_SERVICE_ENTRY = 'functions/server/upload-service-main.ts';

/** The Dockerfile's lines with shell continuations joined. */
function dockerfileLines(): string[] {
  return readFileSync(DOCKERFILE, 'utf8')
    .replace(/\\\r?\n\s*/g, ' ')
    .split(/\r?\n/);
}

/** Splits a shell command into words: whitespace outside quotes, '…' and "…" taken literally. */
function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const m of command.matchAll(/(?:'[^']*'|"[^"]*"|[^\s'"])+/g)) words.push(m[0].replace(/'([^']*)'|"([^"]*)"/g, (_, single, double) => single ?? double));
  return words;
}

/** The arguments the Dockerfile gives esbuild, with its `--outfile` replaced by `outfile`. */
export function dockerfileEsbuildArgs(outfile: string): string[] {
  const run = dockerfileLines().find((l) => l.startsWith('RUN npx esbuild '));
  if (!run) throw new Error(`${DOCKERFILE} no longer builds with "RUN npx esbuild …": update test/support/upload-service-bundle.ts`);
  const args = shellWords(run).slice(3);
  if (args[0] !== UPLOAD_SERVICE_ENTRY || !args.some((a) => a.startsWith('--outfile='))) throw new Error(`unexpected esbuild command in ${DOCKERFILE}: ${run}`);
  return args.map((a) => (a.startsWith('--outfile=') ? `--outfile=${outfile}` : a));
}

/** The variables the image's last stage sets with `ENV` (the container's own variables override them). */
export function imageEnvironment(): Record<string, string> {
  const lines = dockerfileLines();
  const last = lines.findLastIndex((l) => l.startsWith('FROM '));
  return Object.fromEntries(lines.slice(last).flatMap((l) => [...l.matchAll(/^ENV (\w+)=(\S+)$/g)].map((m) => [m[1]!, m[2]!] as const)));
}

export interface UploadServiceBundle {
  /** main.mjs, with its source map next to it. */
  readonly path: string;
  remove(): void;
}

/** Builds the upload service into a fresh temporary directory, as the image's build stage does. */
export async function buildUploadServiceBundle(): Promise<UploadServiceBundle> {
  const dir = mkdtempSync(join(tmpdir(), 'upload-service-'));
  const path = join(dir, 'main.mjs');
  try {
    await promisify(execFile)(join(ROOT, 'node_modules/.bin/esbuild'), [...dockerfileEsbuildArgs(path), '--log-level=error'], { cwd: ROOT });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The `Environment` of the upload service's container in `template` (the Uploads stack), each name
 * in `local` given the local value. A CloudFormation reference without a local value fails, so a
 * variable added to the task definition is noticed here.
 */
export function containerEnvironment(template: Template, local: Readonly<Record<string, string>>): Record<string, string> {
  const containers = Object.values(resourcesOfType(template, 'AWS::ECS::TaskDefinition')).flatMap(
    (t) => (t.Properties?.ContainerDefinitions ?? []) as { Name?: string; Environment?: { Name: string; Value: unknown }[] }[],
  );
  const service = containers.filter((c) => c.Name === 'UploadService');
  if (service.length !== 1) throw new Error(`expected one UploadService container in the template, found ${service.length}`);
  const env: Record<string, string> = {};
  for (const { Name, Value } of service[0]!.Environment ?? []) {
    if (local[Name] !== undefined) env[Name] = local[Name]!;
    else if (typeof Value === 'string') env[Name] = Value;
    else throw new Error(`UploadService: ${Name} is ${JSON.stringify(Value)} and the test gave no value for it`);
  }
  return env;
}

/** A port nothing listens on now (the service logs the PORT it was given, not the one it got). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((go) => server.listen(0, '127.0.0.1', go));
  const { port } = server.address() as AddressInfo;
  await new Promise((go) => server.close(go));
  return port;
}

export interface RunningUploadService {
  readonly child: ChildProcess;
  readonly port: number;
  /** Whether the process is still alive (no exit, no signal). */
  running(): boolean;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
}

/** Starts the bundle at `path` with exactly `env` and resolves once GET /healthz answers 200. */
export async function startUploadService(path: string, env: Readonly<Record<string, string>>, port: number, timeoutMs = 10_000): Promise<RunningUploadService> {
  const child = spawn(process.execPath, [path], { env: { ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString('utf8')));
  const service: RunningUploadService = { child, port, running: () => child.exitCode === null && child.signalCode === null, output: () => output };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && service.running()) {
    const health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
    if (health?.status === 200) return service;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the upload service did not answer /healthz (exit ${child.exitCode}, signal ${child.signalCode})\n${output}`);
}
