/**
 * REAL BUNDLING: the one infra test that runs esbuild (a few seconds). It bundles the first route's
 * function exactly as a deploy would and loads the result in a plain Node process, which catches an
 * ESM bundle that cannot `require` its CommonJS dependencies or a handler that is not exported.
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
import { ROUTES } from '../../functions/routes';
import { AppFunction } from '../../lib/constructs/app-function';
import { stageConfig } from '../../lib/stage-config';
import { newTestApp, TEST_ENV } from './platform-fixture';

const route = ROUTES[0]!;

describe(`real bundle of http/${route.handler}`, () => {
  it('is an ESM bundle with the require shim, a source map and an exported handler', () => {
    const app = newTestApp({ bundle: true });
    const stack = new Stack(app, 'Bundle', { env: TEST_ENV });
    const queueArn = (name: string) => `arn:aws:sqs:${TEST_ENV.region}:${TEST_ENV.account}:${name}`;
    new AppFunction(stack, 'Fn', {
      kind: 'http',
      handler: route.handler,
      grants: route.grants,
      context: {
        config: stageConfig('dev'),
        table: TableV2.fromTableName(stack, 'Table', 'table'),
        uploadsBucketName: 'uploads',
        jobsQueue: Queue.fromQueueArn(stack, 'Jobs', queueArn('jobs')),
        webhooksQueue: Queue.fromQueueArn(stack, 'Webhooks', queueArn('webhooks')),
        webhookSecretsKey: Key.fromKeyArn(stack, 'Secrets', `arn:aws:kms:${TEST_ENV.region}:${TEST_ENV.account}:key/00000000-0000-0000-0000-000000000000`),
      },
    });
    const assembly = app.synth();

    const assets = readdirSync(assembly.directory)
      .map((name) => path.join(assembly.directory, name))
      .filter((dir) => existsSync(path.join(dir, 'index.mjs')));
    expect(assets).toHaveLength(1);
    const bundle = path.join(assets[0]!, 'index.mjs');
    const code = readFileSync(bundle, 'utf8');
    expect(code.startsWith("import { createRequire as __cr } from 'node:module';")).toBe(true);
    expect(code).toMatch(/\/\/# sourceMappingURL=index\.mjs\.map\s*$/);
    expect(existsSync(`${bundle}.map`)).toBe(true);

    // Importing a handler module has no side effects (STYLE.md), so it loads without any env.
    const probe = `const m = await import(${JSON.stringify(pathToFileURL(bundle).href)}); console.log(typeof m.handler);`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8', env: {} });
    expect(out.trim()).toBe('function');
  });
});
