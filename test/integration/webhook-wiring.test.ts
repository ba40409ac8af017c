/**
 * The loopback exception that lets tests deliver to their local receiver exists only in test wiring.
 * `npm start`'s options (whatever the environment says) and the Lambda composition root both keep
 * the production policy: a loopback callback is refused. The one development switch of the local
 * process (`PLATFORM_DEV_WEBHOOKS=1`, for `webhooks listen`) sets no policy and leaves the public
 * routes strict; no Lambda builder can reach it or any other exception, whatever its environment.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkCallbackUrl } from '../../functions/kernel/app/check-callback-url';
import { ENV, ENV_NAMES } from '../../functions/kernel/env';
import { ConfigError, localPlatformOptions } from '../../functions/local/main-options';
import { startPlatform } from '../../functions/local/local-platform';
import { onFirstUse } from '../../functions/tenancy/wiring/core-wiring';
import { buildDeps, parseEnv } from '../../functions/local/local-wiring';

/** Every variable someone might hope switches the exception on. */
const HOPEFUL_ENV = {
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_NETWORK_POLICY: '{"allowAddresses":["127.0.0.1"]}',
  WEBHOOK_ALLOW_ADDRESSES: '127.0.0.1',
  WEBHOOK_TRUSTED_CA: '-----BEGIN CERTIFICATE-----',
  ALLOW_LOOPBACK_WEBHOOKS: 'yes',
  SSRF_PROTECTION: 'off',
  NODE_ENV: 'test',
};

const LAMBDA_ENV = {
  [ENV.stage]: 'prod',
  [ENV.tableName]: 'platform-prod',
  [ENV.bucketName]: 'platform-prod-uploads',
  [ENV.jobsQueueUrl]: 'https://sqs.eu-west-1.amazonaws.com/123456789012/jobs',
  [ENV.webhooksQueueUrl]: 'https://sqs.eu-west-1.amazonaws.com/123456789012/webhooks',
  [ENV.webhookSecretsKeyArn]: 'arn:aws:kms:eu-west-1:123456789012:key/00000000-0000-0000-0000-000000000000',
  [ENV.visibilityDelayMs]: '30000',
  [ENV.anonRetentionDays]: '30',
  [ENV.emptySessionMaxAgeHours]: '24',
  [ENV.appDeletionBatchSize]: '25',
  ...HOPEFUL_ENV,
};

describe('npm start', () => {
  it('builds options without any webhook exception or resolver, whatever the environment holds', () => {
    const options = localPlatformOptions({ ...HOPEFUL_ENV, PORT: '0', DATA_DIR: '/tmp/x' });
    expect(options).not.toHaveProperty('webhookNetwork');
    expect(options).not.toHaveProperty('resolver');
    // Without the development switch, not even the listener registration of `webhooks listen`.
    expect(options).not.toHaveProperty('devWebhookListeners');
    for (const off of ['', '0']) expect(localPlatformOptions({ ...HOPEFUL_ENV, PLATFORM_DEV_WEBHOOKS: off })).not.toHaveProperty('devWebhookListeners');
  });

  it('turns on only the listener registration with PLATFORM_DEV_WEBHOOKS=1, still without a policy; other values are an error', () => {
    const options = localPlatformOptions({ ...HOPEFUL_ENV, PLATFORM_DEV_WEBHOOKS: '1' });
    expect(options.devWebhookListeners).toBe(true);
    expect(options).not.toHaveProperty('webhookNetwork');
    expect(options).not.toHaveProperty('resolver');
    for (const bad of ['true', 'yes', 'on', '2']) expect(() => localPlatformOptions({ PLATFORM_DEV_WEBHOOKS: bad }), bad).toThrow(ConfigError);
  });

  it.each([
    ['without the switch', {}],
    ['with PLATFORM_DEV_WEBHOOKS=1', { PLATFORM_DEV_WEBHOOKS: '1' }],
  ])('refuses a loopback callback when started with those options (%s)', async (_, extra) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'platform-npm-start-'));
    const options = localPlatformOptions({ ...HOPEFUL_ENV, ...extra, PORT: '0', DATA_DIR: dataDir });
    const platform = await startPlatform({ ...options, persist: false, timers: false, seed: false, logger: new Logger({ logLevel: 'SILENT' }) });
    try {
      for (const callbackUrl of ['https://127.0.0.1:8443/hook', 'https://localhost:8443/hook', 'https://[::1]/hook']) {
        const res = await fetch(`${platform.baseUrl}/api/v1/release-notes/subscriptions`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ callbackUrl }),
        });
        expect(res.status, callbackUrl).toBe(400);
      }
      // The local key file of the webhook secrets is created on first use, owner-only.
      await platform.deps.secrets.seal('whsec_x', { subscriptionId: 'probe' });
      expect(statSync(join(dataDir, 'webhook-secrets.key')).mode & 0o777).toBe(0o600);
    } finally {
      await platform.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the Lambda wiring', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('parses an environment with no variable that reaches the exception', () => {
    const parsed = parseEnv(LAMBDA_ENV);
    const known = ENV_NAMES;
    expect(Object.keys(parsed).every((k) => known.includes(k))).toBe(true);
    expect(known.some((k) => /ALLOW|POLICY|LOOPBACK|TRUSTED|SSRF/i.test(k))).toBe(false);
  });

  it('refuses loopback callbacks, as literals and through the real resolver', async () => {
    const deps = buildDeps({ env: parseEnv(LAMBDA_ENV), aws: { region: 'eu-west-1' } });
    expect(deps.webhookExceptions).toEqual([]);
    for (const url of ['https://127.0.0.1/hook', 'https://127.1/hook', 'https://[::1]/hook', 'https://localhost/hook']) {
      const check = await checkCallbackUrl(deps, url);
      expect(check, url).toMatchObject({ ok: false, reason: 'refused_address' });
    }
  });

  it('builds deps from the environment alone: onFirstUse passes nothing else (no policy, no switch)', () => {
    vi.stubEnv(ENV.stage, 'prod');
    for (const [k, v] of Object.entries(LAMBDA_ENV)) vi.stubEnv(k, v);
    const seen: unknown[] = [];
    onFirstUse((opts) => seen.push(opts))();
    expect(seen).toEqual([{ env: parseEnv(process.env) }]);
  });

  it('never produces an exception from any builder the Lambda handlers call, whatever the environment holds', async () => {
    // Every slice's composition roots of the Lambdas: its wiring folder, or its one `<slice>-wiring.ts` at its root.
    const functionsDir = join(import.meta.dirname, '../../functions');
    const slices = readdirSync(functionsDir).filter((area) => statSync(join(functionsDir, area)).isDirectory());
    const modules = slices
      .flatMap((area) => [
        ...(existsSync(join(functionsDir, area, 'wiring')) ? readdirSync(join(functionsDir, area, 'wiring')).map((n) => `${area}/wiring/${n}`) : []),
        ...readdirSync(join(functionsDir, area)).map((n) => `${area}/${n}`),
      ])
      .filter((n) => n.endsWith('-wiring.ts'));
    // The environment of a real function, with every variable of the schema set, then each one (and the
    // local switch) set to values someone might hope turn an exception on. Values the schema refuses fail
    // the cold start (nothing is built), which is also fine.
    const hostile = ['127.0.0.1', 'https://127.0.0.1:8443/hook', '{"allowAddresses":["127.0.0.1"],"trustedCaPem":"-----BEGIN CERTIFICATE-----"}', 'true', '1'];
    const full = {
      ...LAMBDA_ENV,
      [ENV.openAiBaseUrl]: 'https://api.openai.example/v1',
      [ENV.openAiApiKey]: 'sk-test',
      [ENV.bedrockEnabled]: 'true',
      [ENV.gatewayUsagePlans]: '{"orgKey":"plan1"}',
      [ENV.gatewayAuthorizerStages]: 'abc123/prod',
      [ENV.trustViewerAddress]: 'true',
      [ENV.ocrTopicArn]: 'arn:aws:sns:eu-west-1:123456789012:ocr',
      [ENV.ocrRoleArn]: 'arn:aws:iam::123456789012:role/ocr',
      [ENV.paymentSecretArn]: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:stripe',
      [ENV.consoleIssuerUrl]: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc',
      [ENV.consoleAuthBaseUrl]: 'https://platform-prod-123456789012.auth.eu-west-1.amazoncognito.com',
      [ENV.consoleClientSecret]: 'platform-prod/console-client',
      PLATFORM_DEV_WEBHOOKS: '1',
    };
    const variants: Record<string, string>[] = [
      full,
      ...[...ENV_NAMES, 'PLATFORM_DEV_WEBHOOKS'].flatMap((name) => hostile.map((v) => ({ ...full, [name]: v }))),
    ];
    let built = 0;
    let withWebhooks = 0;
    for (const env of variants) {
      try {
        parseEnv(env);
      } catch {
        continue;
      }
      vi.unstubAllEnvs();
      for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
      // Fresh modules: each `*ProductionDeps` builds once per cold start, from process.env, exactly as a handler calls it.
      vi.resetModules();
      for (const file of modules) {
        const mod = (await import(join(functionsDir, file))) as Record<string, unknown>;
        for (const [name, fn] of Object.entries(mod)) {
          if (!name.endsWith('ProductionDeps') || typeof fn !== 'function') continue;
          const deps = (fn as () => Record<string, unknown>)();
          built++;
          if ('webhookExceptions' in deps) {
            withWebhooks++;
            expect(deps.webhookExceptions, `${file} ${name}`).toEqual([]);
          }
          // The delivering client trusts the system roots only.
          if ('webhookSender' in deps) expect(Reflect.get(deps.webhookSender as object, 'ca'), `${file} ${name}`).toBeUndefined();
          for (const key of ['devWebhookListeners', 'webhookNetwork', 'workerDeps']) expect(deps, `${file} ${name}`).not.toHaveProperty(key);
        }
      }
    }
    // The test saw every function's deps, including those of area D, many times.
    expect(built).toBeGreaterThan(10 * 40);
    expect(withWebhooks).toBeGreaterThan(2 * 40);
  });

  it('keeps the development listeners out of every Lambda bundle and the CDK app', () => {
    const root = join(import.meta.dirname, '../..');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : n.endsWith('.ts') ? [join(dir, n)] : []));
    const all = [...files(join(root, 'functions')), ...files(join(root, 'lib')), ...files(join(root, 'bin'))].map((f) => f.slice(root.length + 1));
    const importers = all.filter((f) => /from '[^']*dev-webhook-listeners'/.test(readFileSync(join(root, f), 'utf8'))).sort();
    // The local process wires it; the CLI takes its path from it. Neither is a Lambda entry point or reachable from one.
    expect(importers).toEqual(['functions/cli/dev-listener.ts', 'functions/local/local-platform.ts']);
    // Exceptions are assigned in two places: the composition root (from its options) and the listeners' worker deps.
    const assigning = all.filter((f) => /(?<!readonly )webhookExceptions:/.test(readFileSync(join(root, f), 'utf8'))).sort();
    expect(assigning).toEqual(['functions/kernel/wiring/outbound-network-wiring.ts', 'functions/local/dev-webhook-listeners.ts']);
    // The switch is read from the environment in one place, the options of `npm start`.
    const readers = all.filter((f) =>
      /PLATFORM_DEV_WEBHOOKS'\)|env\.PLATFORM_DEV_WEBHOOKS|\[['"]PLATFORM_DEV_WEBHOOKS/.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(readers).toEqual(['functions/local/main-options.ts']);
    for (const f of all.filter((f) => f.startsWith('lib/') || f.startsWith('bin/')))
      expect(readFileSync(join(root, f), 'utf8'), f).not.toMatch(/PLATFORM_DEV_WEBHOOKS|devWebhookListeners/);
  });

  it('has exactly one place outside tests that accepts exceptions: the options of the composition root', () => {
    const root = join(import.meta.dirname, '../../functions');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : n.endsWith('.ts') ? [join(dir, n)] : []));
    const users = files(root)
      .filter((f) => /webhookNetwork\b/.test(readFileSync(f, 'utf8')))
      .map((f) => f.slice(root.length + 1))
      .sort();
    // The platform's outbound-network wiring takes it from its options (every area that sends webhooks,
    // and a chat turn's MCP servers and file URLs, build their SSRF check there); local-platform.ts passes
    // its own options through. Nothing reads env for it.
    expect(users).toEqual(['kernel/wiring/outbound-network-wiring.ts', 'local/local-platform.ts']);
    for (const f of users) expect(readFileSync(join(root, f), 'utf8')).not.toMatch(/process\.env[^\n]*webhookNetwork|webhookNetwork[^\n]*process\.env/);
  });
});
