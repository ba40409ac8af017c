/**
 * Starts the real local platform in-process for a test file: embedded backends with tables in memory,
 * files in a temporary directory, on ephemeral loopback ports.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { afterAll, beforeAll } from 'vitest';
import { startPlatform, type PlatformOptions, type RunningPlatform } from '../../functions/local/local-platform';
import { openApiMismatch, openApiRequestMismatch } from './openapi-check';

export interface TestPlatform extends RunningPlatform {
  readonly dataDir: string;
  /** Calls the admin API with the admin token; returns status, headers and parsed body. */
  admin(method: string, path: string, body?: unknown): Promise<TestResponse>;
  /** Calls any route with an optional bearer token. */
  call(method: string, path: string, init?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<TestResponse>;
  /** Creates an org (paid unless told), an app and an org key with the given scopes. */
  fixture(opts?: { plan?: 'free' | 'paid'; scopes?: string[] }): Promise<{ orgId: string; appId: string; appNameId: string; orgKey: string; orgKeyId: string }>;
}

/** What `fixture()` creates. */
export type Fixture = Awaited<ReturnType<TestPlatform['fixture']>>;

export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
  readonly text: string;
}

export async function startTestPlatform(opts: Partial<PlatformOptions> = {}): Promise<TestPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-test-'));
  const platform = await startPlatform({
    dataDir,
    persist: false,
    timers: false,
    seed: false,
    logger: new Logger({ serviceName: 'platform-test', logLevel: 'SILENT' }),
    ...opts,
  });
  const call: TestPlatform['call'] = async (method, path, init = {}) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(platform.baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    // The response must be what the OpenAPI document says (test/support/openapi-check.ts).
    const mismatch = openApiMismatch(method, path, res.status, res.headers.get('content-type'), text);
    if (mismatch) throw new Error(`response does not match the OpenAPI document: ${mismatch}`);
    const requestMismatch = openApiRequestMismatch(
      method,
      path,
      res.status,
      { contentType: Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1], body },
      res.headers,
    );
    if (requestMismatch) throw new Error(`request does not match the OpenAPI document: ${requestMismatch}`);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  const admin: TestPlatform['admin'] = (method, path, body) => call(method, `/admin/v1${path}`, { token: platform.adminToken, body });
  const fixture: TestPlatform['fixture'] = async (o = {}) => {
    const org = await admin('POST', '/orgs', { name: 'Test Org', plan: o.plan ?? 'paid' });
    const app = await admin('POST', `/orgs/${org.body.data.id}/apps`, { name: 'Test App' });
    const key = await admin('POST', `/orgs/${org.body.data.id}/keys`, {
      scopes: o.scopes ?? ['apps:read', 'transcripts:read', 'usage:read', 'tombstones:read'],
    });
    if (org.status !== 201 || app.status !== 201 || key.status !== 201) throw new Error(`fixture failed: ${org.text} ${app.text} ${key.text}`);
    return { orgId: org.body.data.id, appId: app.body.data.id, appNameId: app.body.data.appNameId, orgKey: key.body.data.key, orgKeyId: key.body.data.id };
  };
  return {
    ...platform,
    dataDir,
    admin,
    call,
    fixture,
    async stop() {
      await platform.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts a test platform before the tests of the enclosing describe (or file) and stops it after them.
 * `bind` receives it once it runs, so a test file keeps its own `let p` binding.
 */
export function usePlatform(opts: Partial<PlatformOptions>, bind: (p: TestPlatform) => void): void {
  let started: TestPlatform | undefined;
  beforeAll(async () => {
    started = await startTestPlatform(opts);
    bind(started);
  });
  afterAll(() => started?.stop());
}
