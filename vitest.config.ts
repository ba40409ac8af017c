import { readdirSync } from 'node:fs';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const shared: NonNullable<TestProjectInlineConfiguration['test']> = {
  globalSetup: ['test/support/console-build-setup.ts'],
  pool: 'forks',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  env: {
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    CDK_DISABLE_VERSION_CHECK: '1',
    CDK_DISABLE_CLI_TELEMETRY: 'true',
  },
};

/**
 * Integration files that start, signal or kill child processes (CLIs, crash children, listeners) or
 * stub the environment keep a fork of their own; a new file that does any of that belongs here.
 */
const OWN_PROCESS_INTEGRATION = [
  'test/integration/admin-order-delivery.test.ts',
  'test/integration/export-convergence.test.ts',
  'test/integration/export-sync-cli.test.ts',
  'test/integration/model-server-recipe.test.ts',
  'test/integration/order-events-listen.test.ts',
  'test/integration/webhook-wiring.test.ts',
  'test/integration/webhooks-listen.test.ts',
];

const SHARED_INTEGRATION = readdirSync(new URL('test/integration', import.meta.url))
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `test/integration/${name}`)
  .filter((path) => !OWN_PROCESS_INTEGRATION.includes(path));

export default defineConfig({
  test: {
    maxWorkers: 2,
    // Vitest queues the files project after project (by name; the slowest first within each, from its
    // cache of earlier runs), and a worker keeps its process for the next file of the same project only,
    // so the shared module graphs pay off; the many short unit files come last and even out the end.
    projects: [
      {
        // Unit tests leave nothing behind between files (no module mock outlives its test, no stubbed
        // global or environment variable, no platform): one process and module graph per worker spares
        // each file a fork and a fresh import of the domain code, about a second a file.
        test: { ...shared, name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false },
      },
      {
        // The infra tests read synthesized templates and never change them or the process: in one module
        // graph per worker they import aws-cdk-lib once and share each stage's synthesis (platform-fixture.ts).
        test: { ...shared, name: 'infra', include: ['test/infra/**/*.test.ts'], isolate: false },
      },
      {
        // Each handler file starts its own local platform (its own backends, clock and deps) and stops it;
        // none mocks a module or changes the process. Sharing a worker's module graph spares each file the
        // import of the whole platform (about 3 s) and the first start's warm-up.
        test: { ...shared, name: 'handlers', include: ['test/handlers/**/*.test.ts'], isolate: false },
      },
      {
        // The integration files that run everything in this process, like the handler files.
        test: { ...shared, name: 'integration', include: SHARED_INTEGRATION, isolate: false },
      },
      {
        // The deployment bundle files: their platform stopped in afterAll, the bundles run in child processes
        // that end with each invocation; they too share one synthesis per stage (platform-fixture.ts).
        test: { ...shared, name: 'bundles', include: ['test/bundles/**/*.test.ts'], isolate: false },
      },
      {
        // The browser files: a platform and a Chromium each, both closed in afterAll.
        test: { ...shared, name: 'e2e', include: ['test/e2e/**/*.test.ts'], isolate: false },
      },
      {
        // Everything else (the fuzz files and the integration files above): a fresh fork each.
        test: {
          ...shared,
          name: 'platform',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**', 'test/infra/**', 'test/handlers/**', 'test/e2e/**', 'test/bundles/**', ...SHARED_INTEGRATION],
        },
      },
    ],
  },
});
