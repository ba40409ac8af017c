/**
 * Runs a function's deployment bundle the way Lambda runs it, for the tests that must hold for what
 * is deployed rather than for the TypeScript sources: the entry is built with AppFunction's esbuild
 * settings (bench/lambda-esbuild.ts) into `index.mjs` and its `chunks/`, and each invocation imports it in a fresh child
 * Node process whose environment is only what the test gives it (the function's variables from the
 * synthesized template, the Lambda runtime's own, and the SDK endpoints of the local backends), so
 * module-level state, cold-start checks and configuration come from the bundle and nothing else.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { GetQueueUrlCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Template } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import { lambdaEsbuildOptions } from '../../bench/lambda-esbuild';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../functions/local/backends';
import type { RunningPlatform } from '../../functions/local/local-platform';
import { platformFunctions } from '../infra/platform-fixture';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Imports the bundle, invokes the handler with the event and a Lambda-like context, writes the outcome
 * to a file and exits (open sockets would keep Node alive, where Lambda would freeze them).
 * Names under `.localhost` resolve to loopback (RFC 6761), as systemd-resolved and macOS resolve
 * them but glibc alone does not: the SQS emulator names its queues `sqs.<region>.localhost`, and
 * the SDK sends each request to its queue URL's host, as it does on AWS.
 */
const RUNNER = `
import dns from 'node:dns';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const lookup = dns.lookup;
dns.lookup = (name, options, callback) => {
  const cb = typeof options === 'function' ? options : callback;
  const opts = typeof options === 'object' && options !== null ? options : {};
  if (typeof name !== 'string' || !name.endsWith('.localhost')) return lookup(name, options, callback);
  if (opts.all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
  else cb(null, '127.0.0.1', 4);
};
const [bundle, handlerName, eventFile, outFile, timeoutMs] = process.argv.slice(2);
const deadline = Date.now() + Number(timeoutMs);
const name = process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'bundle-test';
const context = {
  functionName: name,
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:' + process.env.AWS_REGION + ':000000000000:function:' + name,
  memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ?? '1024',
  awsRequestId: crypto.randomUUID(),
  logGroupName: '/aws/lambda/' + name,
  logStreamName: 'bundle-test',
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  done() {}, fail() {}, succeed() {},
};
let outcome;
try {
  const mod = await import(pathToFileURL(bundle).href);
  const result = await mod[handlerName](JSON.parse(readFileSync(eventFile, 'utf8')), context);
  outcome = { ok: true, result: result ?? null };
} catch (err) {
  outcome = { ok: false, error: { name: err?.name, message: err?.message, stack: err?.stack } };
}
writeFileSync(outFile, JSON.stringify(outcome));
process.exit(0);
`;

/** A built bundle: `path` is its index.mjs, with the chunks it loads beside it; `remove` deletes its directory. */
export interface LambdaBundle {
  readonly path: string;
  remove(): void;
}

/** Builds `entry` (repository-relative) exactly as a deployment does: index.mjs and chunks/ in a fresh temporary directory. */
export async function buildLambdaBundle(entry: string): Promise<LambdaBundle> {
  const dir = mkdtempSync(join(tmpdir(), 'lambda-bundle-'));
  const path = join(dir, 'index.mjs');
  await build({ ...lambdaEsbuildOptions(ROOT, entry, dir), write: true });
  writeFileSync(join(dir, 'runner.mjs'), RUNNER);
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Invocation<R> {
  /** What the handler returned (null for undefined). */
  readonly result: R;
  /** Every line the process wrote to stdout or stderr that is a JSON object: Powertools logs and EMF metrics. */
  readonly logs: readonly Record<string, unknown>[];
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Invokes `handler` of the bundle at `path` with `event` in a child process whose environment is
 * exactly `env`. Rejects with the child's output if the handler throws, the process fails, or it
 * outlives `timeoutMs` (which is also what the context's getRemainingTimeInMillis counts down from).
 */
export async function invokeLambdaBundle<R = unknown>(
  path: string,
  env: Readonly<Record<string, string>>,
  event: unknown,
  opts: { handler?: string; timeoutMs?: number } = {},
): Promise<Invocation<R>> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const id = randomUUID();
  const eventFile = join(dirname(path), `event-${id}.json`);
  const outFile = join(dirname(path), `outcome-${id}.json`);
  writeFileSync(eventFile, JSON.stringify(event));
  const child = spawn(process.execPath, [join(dirname(path), 'runner.mjs'), path, opts.handler ?? 'handler', eventFile, outFile, String(timeoutMs)], {
    env: { ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const code = await new Promise<number | null>((resolveExit, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bundle ${path} ran past ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs + 5_000);
    child.once('error', reject);
    child.once('exit', (c) => {
      clearTimeout(timer);
      resolveExit(c);
    });
  });
  let outcome: { ok: true; result: R } | { ok: false; error: { name?: string; message?: string; stack?: string } };
  try {
    outcome = JSON.parse(readFileSync(outFile, 'utf8'));
  } catch {
    throw new Error(`bundle ${path} exited with ${code} and no outcome\nstdout:\n${stdout}\nstderr:\n${stderr}`);
  } finally {
    rmSync(eventFile, { force: true });
    rmSync(outFile, { force: true });
  }
  if (!outcome.ok)
    throw new Error(`handler threw ${outcome.error.name}: ${outcome.error.message}\n${outcome.error.stack}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
  return { result: outcome.result, logs: jsonLines(`${stdout}\n${stderr}`), stdout, stderr };
}

function jsonLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // Not a log line of ours (a multi-line dump, say): only whole JSON objects are returned.
    }
  }
  return out;
}

/**
 * The environment Lambda gives the platform function `description` ("workers/jobs-worker",
 * "http/…") of a synthesized template: its `Environment.Variables` with each name in `local`
 * replaced by the local value (the table, bucket and queues of a running local platform), and the
 * variables the Lambda runtime itself sets from the function's configuration. A CloudFormation
 * reference without a local value fails, so a variable added to the template is noticed here.
 */
export function lambdaEnvironment(template: Template, description: string, local: Readonly<Record<string, string>>): Record<string, string> {
  const matches = Object.values(platformFunctions(template)).filter((f) => f.Properties?.Description === description);
  if (matches.length !== 1) throw new Error(`expected one function "${description}" in the template, found ${matches.length}`);
  const props = matches[0]!.Properties!;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries((props.Environment?.Variables ?? {}) as Record<string, unknown>)) {
    if (local[name] !== undefined) env[name] = local[name]!;
    else if (typeof value === 'string') env[name] = value;
    else throw new Error(`${description}: ${name} is ${JSON.stringify(value)} and the test gave no value for it`);
  }
  const name = description.replace(/\W+/g, '-');
  return {
    ...env,
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(props.MemorySize ?? 128),
    AWS_EXECUTION_ENV: `AWS_Lambda_${String(props.Runtime ?? 'nodejs22.x')}`,
    ...(props.LoggingConfig?.LogFormat ? { AWS_LAMBDA_LOG_FORMAT: String(props.LoggingConfig.LogFormat) } : {}),
    ...(props.LoggingConfig?.ApplicationLogLevel ? { AWS_LAMBDA_LOG_LEVEL: String(props.LoggingConfig.ApplicationLogLevel) } : {}),
    _HANDLER: String(props.Handler ?? 'index.handler'),
    TZ: ':UTC',
  };
}

/** The timeout of the platform function `description`, in milliseconds. */
/** A key ARN for the variable the template sets: the KMS client is built from it but never called in these tests. */
const UNUSED_KEY_ARN = 'arn:aws:kms:eu-west-1:123456789012:key/00000000-0000-0000-0000-000000000000';
/**
 * SNS and Textract have no local twin: the Responses function (which may start OCR for a scanned PDF in
 * an input part) builds its Textract engine from these, and no request of these tests starts OCR.
 */
const UNUSED_OCR_TOPIC_ARN = 'arn:aws:sns:eu-west-1:123456789012:unused-ocr';
const UNUSED_OCR_ROLE_ARN = 'arn:aws:iam::123456789012:role/unused-textract';

/** The environment of the function described `description`, with its resources pointed at the local backends. */
export function localFunctionEnvironment(template: Template, description: string, local: LocalResources): Record<string, string> {
  return {
    ...lambdaEnvironment(template, description, {
      TABLE_NAME: local.tableName,
      BUCKET_NAME: local.bucketName,
      JOBS_QUEUE_URL: local.jobsQueueUrl,
      WEBHOOKS_QUEUE_URL: local.webhooksQueueUrl,
      RESPONSES_QUEUE_URL: local.responsesQueueUrl,
      WEBHOOK_SECRETS_KEY_ARN: UNUSED_KEY_ARN,
      OCR_TOPIC_ARN: UNUSED_OCR_TOPIC_ARN,
      OCR_ROLE_ARN: UNUSED_OCR_ROLE_ARN,
    }),
    ...local.awsEnv,
  };
}

export function lambdaTimeoutMs(template: Template, description: string): number {
  const fn = Object.values(platformFunctions(template)).find((f) => f.Properties?.Description === description);
  return Number(fn?.Properties?.Timeout ?? 3) * 1000;
}

/** What a running local platform's resources are called and where its backends listen, for a bundle's environment. */
export interface LocalResources {
  readonly tableName: string;
  readonly bucketName: string;
  readonly jobsQueueUrl: string;
  readonly webhooksQueueUrl: string;
  readonly responsesQueueUrl: string;
  /** Region, the backends' key pair and `AWS_ENDPOINT_URL_<SERVICE>`: the SDK in a bundle then talks to the embedded backends. */
  readonly awsEnv: Readonly<Record<string, string>>;
}

/**
 * The platform publishes no endpoints; its adapters hold the clients the composition root built, so
 * they are read from there (as test/support/store.ts reads the table).
 */
export async function localResources(p: Pick<RunningPlatform, 'deps'>): Promise<LocalResources> {
  const sessions = p.deps.sessions as unknown as { db?: DynamoDBDocumentClient; table?: string };
  const jobs = p.deps.jobs as unknown as { sqs?: SQSClient; queueUrl?: string };
  const webhooks = p.deps.webhookQueue as unknown as { queueUrl?: string };
  const objects = p.deps.objects as unknown as { s3?: { config: { endpoint?: () => Promise<EndpointParts> } }; bucket?: string };
  if (!sessions.db || !sessions.table || !jobs.sqs || !jobs.queueUrl || !webhooks.queueUrl || !objects.s3?.config.endpoint || !objects.bucket) {
    throw new Error('an adapter no longer exposes its client, table, bucket or queue URL: update test/support/lambda-bundle.ts');
  }
  const urlOf = async (client: { config: { endpoint?: () => Promise<EndpointParts> } }) => {
    const e = await client.config.endpoint!();
    return `${e.protocol}//${e.hostname}${e.port ? `:${e.port}` : ''}`;
  };
  return {
    tableName: sessions.table,
    bucketName: objects.bucket,
    jobsQueueUrl: jobs.queueUrl,
    webhooksQueueUrl: webhooks.queueUrl,
    // The background runs' queue sits behind a port that keeps its URL to itself: asked of the local SQS by name.
    responsesQueueUrl: (await jobs.sqs.send(new GetQueueUrlCommand({ QueueName: 'responses' }))).QueueUrl!,
    awsEnv: {
      AWS_REGION: LOCAL_REGION,
      AWS_DEFAULT_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: await urlOf(sessions.db as unknown as { config: { endpoint?: () => Promise<EndpointParts> } }),
      AWS_ENDPOINT_URL_SQS: await urlOf(jobs.sqs as unknown as { config: { endpoint?: () => Promise<EndpointParts> } }),
      AWS_ENDPOINT_URL_S3: await urlOf(objects.s3),
    },
  };
}

interface EndpointParts {
  readonly protocol: string;
  readonly hostname: string;
  readonly port?: number;
}
