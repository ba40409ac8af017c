/**
 * The loopback exception that lets tests deliver to their local receiver exists only in test wiring.
 * `npm start`'s options (whatever the environment says) and the Lambda composition root both keep
 * the production policy: a loopback callback is refused.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { describe, expect, it } from 'vitest';
import { checkCallbackUrl } from '../../functions/app/check-callback-url';
import { ENV, ENV_NAMES } from '../../functions/env';
import { localPlatformOptions } from '../../functions/local/main-options';
import { startPlatform } from '../../functions/local/platform';
import { buildDeps, parseEnv } from '../../functions/wiring/platform-wiring';

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
  });

  it('refuses a loopback callback when started with those options', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'platform-npm-start-'));
    const options = localPlatformOptions({ ...HOPEFUL_ENV, PORT: '0', DATA_DIR: dataDir });
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

  it('has exactly one place outside tests that accepts exceptions: the options of the composition root', () => {
    const root = join(import.meta.dirname, '../../functions');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : n.endsWith('.ts') ? [join(dir, n)] : []));
    const users = files(root)
      .filter((f) => /webhookNetwork\b/.test(readFileSync(f, 'utf8')))
      .map((f) => f.slice(root.length + 1))
      .sort();
    // The wiring takes it from its options (declared in core-wiring, used in release-notes-wiring); platform.ts
    // passes its own options through. Nothing reads env for it.
    expect(users).toEqual(['local/platform.ts', 'wiring/core-wiring.ts', 'wiring/release-notes-wiring.ts', 'wiring/webhook-delivery-wiring.ts']);
    for (const f of users) expect(readFileSync(join(root, f), 'utf8')).not.toMatch(/process\.env[^\n]*webhookNetwork|webhookNetwork[^\n]*process\.env/);
  });
});
