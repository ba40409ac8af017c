/**
 * REAL BUNDLING: the one infra test that runs esbuild (a few seconds). It bundles the chat completions
 * function (whose lazily imported adapters are chunks of their own) exactly as a deploy would and loads
 * the result in a plain Node process, which catches an ESM bundle or chunk that cannot `require` its
 * CommonJS dependencies, a chunk missing from the asset, or a handler that is not exported.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it, expect } from 'vitest';
import { Stack } from 'aws-cdk-lib';
import { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { CHAT_ROUTES } from '../../functions/chat/chat-routes';
import { AppFunction } from '../../lib/constructs/app-function';
import { stageConfig } from '../../lib/stage-config';
import { buildUploadServiceBundle } from '../support/upload-service-bundle';
import { newTestApp, TEST_ENV } from './platform-fixture';

const route = CHAT_ROUTES.chatCompletionsCreate;

describe(`real bundle of ${route.handler}`, () => {
  it('is an ESM bundle with the require shim, a source map and an exported handler', () => {
    const app = newTestApp({ bundle: true });
    const stack = new Stack(app, 'Bundle', { env: TEST_ENV });
    const queueArn = (name: string) => `arn:aws:sqs:${TEST_ENV.region}:${TEST_ENV.account}:${name}`;
    new AppFunction(stack, 'Fn', {
      handler: route.handler,
      grants: route.grants,
      context: {
        config: stageConfig('dev'),
        table: TableV2.fromTableName(stack, 'Table', 'table'),
        uploadsBucketName: 'uploads',
        jobsQueue: Queue.fromQueueArn(stack, 'Jobs', queueArn('jobs')),
        responsesQueue: Queue.fromQueueArn(stack, 'Responses', queueArn('responses')),
        webhooksQueue: Queue.fromQueueArn(stack, 'Webhooks', queueArn('webhooks')),
        exportsQueue: Queue.fromQueueArn(stack, 'Exports', queueArn('exports')),
        orderEventsQueue: Queue.fromQueueArn(stack, 'OrderEvents', queueArn('order-events')),
        webhookSecretsKey: Key.fromKeyArn(stack, 'Secrets', `arn:aws:kms:${TEST_ENV.region}:${TEST_ENV.account}:key/00000000-0000-0000-0000-000000000000`),
      },
    });
    const assembly = app.synth();

    const assets = readdirSync(assembly.directory)
      .map((name) => path.join(assembly.directory, name))
      .filter((dir) => existsSync(path.join(dir, 'index.mjs')));
    expect(assets).toHaveLength(1);
    const bundle = path.join(assets[0]!, 'index.mjs');
    // index.mjs and every chunk a dynamic import loads: each one may `require` a CommonJS dependency.
    const files = readdirSync(assets[0]!, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mjs'));
    expect(files).toContain('index.mjs');
    expect(files.filter((f) => f.startsWith('chunks/')).length).toBeGreaterThan(0);
    for (const file of files) {
      const code = readFileSync(path.join(assets[0]!, file), 'utf8');
      expect(code.startsWith("import { createRequire as __cr } from 'node:module';"), file).toBe(true);
      expect(code, file).toMatch(new RegExp(`//# sourceMappingURL=${path.basename(file).replace(/[.-]/g, '\\$&')}\\.map\\s*$`));
      expect(existsSync(path.join(assets[0]!, `${file}.map`)), file).toBe(true);
    }

    // Importing a handler module has no side effects (docs/design.md §2: production deps are built on first use), so it loads without any env.
    const probe = `const m = await import(${JSON.stringify(pathToFileURL(bundle).href)}); console.log(typeof m.handler);`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8', env: {} });
    expect(out.trim()).toBe('function');
    // What a request's `import()` loads later: every chunk evaluates from the asset as it stands.
    const chunks = files.filter((f) => f.startsWith('chunks/')).map((f) => pathToFileURL(path.join(assets[0]!, f)).href);
    const loadAll = `for (const c of ${JSON.stringify(chunks)}) await import(c); console.log('loaded');`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', loadAll], { encoding: 'utf8', env: {} }).trim()).toBe('loaded');
  });
});

describe('real bundle of the upload service (functions/server/upload-service-main.ts)', () => {
  it('bundles as the Dockerfile does, starts from a Lambda-like environment, answers /healthz and refuses a keyless upload', async () => {
    const { spawn } = await import('node:child_process');
    const bundle = await buildUploadServiceBundle();
    try {
      const port = 20000 + Math.floor(Math.random() * 20000);
      const env = {
        PATH: process.env.PATH ?? '',
        STAGE: 'dev',
        TABLE_NAME: 'table',
        BUCKET_NAME: 'uploads',
        JOBS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/jobs',
        VISIBILITY_DELAY_MS: '30000',
        ANON_RETENTION_DAYS: '30',
        EMPTY_SESSION_MAX_AGE_HOURS: '24',
        APP_DELETION_BATCH_SIZE: '25',
        BEDROCK_ENABLED: 'true',
        TRUST_VIEWER_ADDRESS: 'true',
        OCR_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:ocr',
        OCR_ROLE_ARN: 'arn:aws:iam::123456789012:role/textract',
        AWS_REGION: 'eu-west-1',
        PORT: String(port),
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        POWERTOOLS_METRICS_DISABLED: 'true',
      };
      const child = spawn(process.execPath, [bundle.path], { env, stdio: 'ignore' });
      try {
        let health: Response | undefined;
        for (let i = 0; i < 50 && !health; i++) {
          health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
          if (!health) await new Promise((r) => setTimeout(r, 100));
        }
        expect(health?.status).toBe(200);
        const upload = await fetch(`http://127.0.0.1:${port}/api/v1/chat/files`, { method: 'POST' });
        expect(upload.status).toBe(401);
        expect(await upload.json()).toEqual({ error: expect.stringMatching(/API key/) });
      } finally {
        child.kill('SIGTERM');
      }
    } finally {
      bundle.remove();
    }
  }, 60_000);
});
