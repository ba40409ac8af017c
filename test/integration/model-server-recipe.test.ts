/**
 * The README's recipe for a local model server: set OPENAI_BASE_URL (and OPENAI_API_KEY if the server
 * wants one) before `npm start`, then `npm run admin -- app update --app <appId> --model openai:<name>`.
 * First what `npm start` reads from the environment (localPlatformOptions), then the recipe end to end:
 * the platform as its own process (`node --import tsx functions/local/main.ts`, as `npm start` runs it;
 * npm itself would not pass a signal sent to it alone on), the admin CLI switching the demo app, and a
 * chat turn that reaches a loopback OpenAI-compatible server with the configured key and model name.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, localPlatformOptions } from '../../functions/local/main-options';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../support/fake-openai-server';
import { waitFor } from '../support/webhook-receiver';

describe('localPlatformOptions: the model server of openai:<name> apps', () => {
  it('reads OPENAI_BASE_URL and OPENAI_API_KEY, without a trailing slash on the URL', () => {
    const options = localPlatformOptions({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1/', OPENAI_API_KEY: 'sk-local' });
    expect(options.openAiBaseUrl).toBe('http://127.0.0.1:11434/v1');
    expect(options.openAiApiKey).toBe('sk-local');
    expect(localPlatformOptions({ OPENAI_BASE_URL: 'https://models.example.com/openai/v1' }).openAiBaseUrl).toBe('https://models.example.com/openai/v1');
  });

  it('takes a URL without a key (a server that wants none)', () => {
    for (const key of [undefined, '']) {
      const options = localPlatformOptions({ OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', ...(key !== undefined ? { OPENAI_API_KEY: key } : {}) });
      expect(options.openAiBaseUrl).toBe('http://127.0.0.1:8000/v1');
      expect(options).not.toHaveProperty('openAiApiKey');
    }
  });

  it('sets neither when neither is set, or both are empty', () => {
    for (const env of [{}, { OPENAI_BASE_URL: '' }, { OPENAI_BASE_URL: '', OPENAI_API_KEY: '' }]) {
      const options = localPlatformOptions(env);
      expect(options, JSON.stringify(env)).not.toHaveProperty('openAiBaseUrl');
      expect(options, JSON.stringify(env)).not.toHaveProperty('openAiApiKey');
    }
  });

  it('refuses a key without a URL', () => {
    for (const env of [{ OPENAI_API_KEY: 'sk-local' }, { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: '' }]) {
      expect(() => localPlatformOptions(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => localPlatformOptions(env)).toThrow(/OPENAI_API_KEY is set but OPENAI_BASE_URL is not/);
    }
  });

  it.each(['not a url', '127.0.0.1:11434/v1', 'localhost:11434/v1', 'ftp://127.0.0.1/v1', 'file:///tmp/socket', 'http://', 'ws://127.0.0.1:11434/v1'])(
    'refuses OPENAI_BASE_URL=%j',
    (url) => {
      expect(() => localPlatformOptions({ OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-local' })).toThrow(ConfigError);
      expect(() => localPlatformOptions({ OPENAI_BASE_URL: url })).toThrow(/OPENAI_BASE_URL must be an http\(s\) URL/);
    },
  );

  /** The adapter appends /chat/completions to the URL: a query, a fragment or credentials could never work. */
  it.each(['http://127.0.0.1:11434/v1?x=1', 'http://127.0.0.1:11434/v1#frag', 'http://user:secret@127.0.0.1:11434/v1'])(
    'refuses OPENAI_BASE_URL=%j, which no request can use',
    (url) => {
      expect(() => localPlatformOptions({ OPENAI_BASE_URL: url })).toThrow(ConfigError);
    },
  );
});

interface Child {
  readonly process: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The environment of a child: this process's, without any of the variables the test sets itself. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'ADMIN_TOKEN', 'ADMIN_API_URL', 'PUBLIC_BASE_URL', 'PLATFORM_DEV_WEBHOOKS', 'HOST'])
    delete env[name];
  return { ...env, ...extra };
}

function run(args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { process: child, stdout: () => stdout, stderr: () => stderr, exited };
}

interface Demo {
  readonly baseUrl: string;
  readonly appId: string;
  readonly appNameId: string;
  readonly chatKey: string;
  readonly adminToken: string;
}

describe('npm start with OPENAI_BASE_URL and OPENAI_API_KEY, then app update --model openai:<name>', () => {
  let upstream: FakeOpenAiServer;
  let dataDir: string;
  let platform: Child | undefined;
  beforeAll(async () => {
    upstream = await startFakeOpenAiServer();
    dataDir = mkdtempSync(join(tmpdir(), 'model-server-recipe-'));
  });
  afterAll(async () => {
    // Only if a failed test left it running.
    if (platform && platform.process.exitCode === null && platform.process.signalCode === null) {
      platform.process.kill('SIGKILL');
      await platform.exited;
    }
    await upstream?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends the demo app’s turns to the model server with the key and the model name, and stops on SIGINT', async () => {
    // A trailing slash, as someone may well type it: the platform trims it.
    platform = run(['functions/local/main.ts'], childEnv({ DATA_DIR: dataDir, PORT: '0', OPENAI_BASE_URL: `${upstream.baseUrl}/`, OPENAI_API_KEY: 'sk-test' }));
    const started = platform;
    await waitFor(() => started.stdout().includes('Press Ctrl+C to stop.') || started.process.exitCode !== null, 30_000, 'the startup banner');
    expect(started.process.exitCode, `stdout: ${started.stdout()}\nstderr: ${started.stderr()}`).toBeNull();
    const banner = started.stdout();
    expect(banner).toContain(`  model server    ${upstream.baseUrl}   (for apps whose model is openai:<name>)`);
    // The key is not printed.
    expect(banner).not.toContain('sk-test');

    const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8')) as Demo;
    expect(banner).toContain(`running at ${demo.baseUrl}`);

    // The demo app starts on the offline model: its turns never reach the model server.
    const chat = (content: string) =>
      fetch(`${demo.baseUrl}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${demo.chatKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: demo.appNameId, messages: [{ role: 'user', content }] }),
      });
    const offline = await chat('Hello offline');
    expect(offline.status).toBe(200);
    expect(((await offline.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('Offline reply #1: Hello offline');
    expect(upstream.requests).toEqual([]);

    // `npm run admin -- app update --app <appId> --model openai:llama-test`: the CLI finds the local
    // platform and its admin token through DATA_DIR.
    const update = run(['functions/cli/admin.ts', 'app', 'update', '--app', demo.appId, '--model', 'openai:llama-test'], childEnv({ DATA_DIR: dataDir }));
    const updated = await update.exited;
    expect(updated.code, `stdout: ${update.stdout()}\nstderr: ${update.stderr()}`).toBe(0);
    expect(JSON.parse(update.stdout())).toMatchObject({ data: { id: demo.appId, settings: { model: 'openai:llama-test' } } });
    // The admin API (the admin token of demo.json) shows the same.
    const app = await fetch(`${demo.baseUrl}/admin/v1/apps/${demo.appId}`, { headers: { Authorization: `Bearer ${demo.adminToken}` } });
    expect(app.status).toBe(200);
    expect(await app.json()).toMatchObject({ data: { settings: { model: 'openai:llama-test' } } });

    upstream.reply({
      kind: 'json',
      body: {
        id: 'chatcmpl-llama',
        object: 'chat.completion',
        created: 1,
        model: 'llama-test',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from llama' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 6, completion_tokens: 3 },
      },
    });
    const res = await chat('Hi llama');
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({
      model: demo.appNameId,
      choices: [{ message: { role: 'assistant', content: 'Hello from llama' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 6, completion_tokens: 3, total_tokens: 9 },
    });
    expect(upstream.requests).toHaveLength(1);
    const received = upstream.requests[0]!;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/v1/chat/completions');
    expect(received.headers.authorization).toBe('Bearer sk-test');
    expect(received.body).toEqual({ model: 'llama-test', messages: [{ role: 'user', content: 'Hi llama' }] });

    started.process.kill('SIGINT');
    const stopped = await started.exited;
    expect(stopped, `stdout: ${started.stdout()}\nstderr: ${started.stderr()}`).toEqual({ code: 0, signal: null });
    expect(started.stdout()).toContain('SIGINT: stopping');
  });

  it('does not start with a key but no URL: it names the mistake and exits 1', async () => {
    const child = run(['functions/local/main.ts'], childEnv({ DATA_DIR: dataDir, PORT: '0', OPENAI_API_KEY: 'sk-test' }));
    const exited = await child.exited;
    expect(exited, `stdout: ${child.stdout()}\nstderr: ${child.stderr()}`).toEqual({ code: 1, signal: null });
    expect(child.stderr()).toContain('platform: OPENAI_API_KEY is set but OPENAI_BASE_URL is not');
    expect(child.stdout()).not.toContain('running at');
  });
});
