/**
 * The whole platform as one local process: embedded backends, the route table on one HTTP server,
 * the queue runner and the job timers, all on the same handlers and adapters the Lambdas use.
 * `npm start` runs it; the handler and integration tests start it in-process with a temporary directory.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AwsClientOptions } from '../kernel/adapters/aws-clients';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { createSqsClient } from '../kernel/adapters/aws-queue-clients';
import { TesseractOcrEngine } from '../chat/adapters/tesseract-ocr-engine';
import { createS3Client } from '../kernel/adapters/aws-s3-client';
import { ENV, ENV_DEFAULTS, type EnvVars } from '../kernel/env';
import { runJob } from '../jobs/app/run-job';
import { TestPaymentProvider } from '../acp/adapters/test-payment-provider';
import type { PaymentProvider } from '../acp/app/acp-ports';
import type { ToolProvider } from '../chat/app/chat-ports';
import type { Clock, IdGenerator } from '../kernel/app/kernel-ports';
import type { HostResolver, WebhookNetworkPolicy } from '../kernel/app/outbound-webhook-ports';
import { buildObjectStore } from '../conversations/object-store-wiring';
import { buildDeps, type LocalDeps } from './local-wiring';
import { QUEUES, SCHEDULES, rateIntervalMs } from '../workers';
import { startBackends, LOCAL_CREDENTIALS, LOCAL_REGION } from './backends';
import { ensureBucket, ensureQueues, ensureTable } from './bootstrap';
import { DevWebhookListeners } from './dev-webhook-listeners';
import { attachFrontDoor, frontDoorLog, frontDoorServer, requestListener } from '../server/http-server';
import { withReference } from '../openapi/docs-site';
import { withConsole } from './console-site';
import { importRouteModules, loadRoutes } from './load-routes';
import { LocalApiGateway } from './local-api-gateway';
import { acquireDataDirLock } from './lock';
import { startQueueRunner, type QueueRunner } from './queue-runner';
import { seedDemo, type DemoCredentials } from './seed';
import { recordConsoleSignIn, seedConsoleMembers, startConsoleSignIn, type ConsoleSignInOption, type RunningConsoleSignIn } from './console-sign-in';

export interface PlatformOptions {
  readonly dataDir: string;
  readonly port?: number;
  readonly host?: string;
  /**
   * The `{base_url}` the platform names in absolute URLs (ACP discovery, agent cards, the feed). Default:
   * the address the server listens on. Never taken from a request's `Host` header.
   */
  readonly publicBaseUrl?: string;
  /** Tables on disk (npm start) or in memory (tests). */
  readonly persist?: boolean;
  readonly visibilityDelayMs?: number;
  readonly anonRetentionDays?: number;
  readonly emptySessionMaxAgeHours?: number;
  readonly appDeletionBatchSize?: number;
  /** An OpenAI-compatible endpoint for apps whose model is `openai:<model>`. */
  readonly openAiBaseUrl?: string;
  readonly openAiApiKey?: string;
  /** Replaces the MCP gateway (tests only). */
  readonly tools?: ToolProvider;
  /** Answers DNS for webhook callback hosts (tests only; node:dns otherwise). */
  readonly resolver?: HostResolver;
  /**
   * Exceptions to the webhook SSRF policy (tests only: a loopback receiver with a test CA).
   * `npm start` never sets it (functions/local/main-options.ts) and no environment variable can.
   */
  readonly webhookNetwork?: WebhookNetworkPolicy;
  /**
   * The development switch of `webhooks listen` (`PLATFORM_DEV_WEBHOOKS=1`): serves the local-only
   * listener registration path, and lets the queue workers deliver to exactly the registered
   * listeners (functions/local/dev-webhook-listeners.ts). The public routes stay strict.
   */
  readonly devWebhookListeners?: boolean;
  /** Replaces the built-in test payment handler (tests only: a gateway that fails or counts charges). */
  readonly payments?: PaymentProvider;
  /** Run the scheduled jobs on timers (npm start); tests run them through the admin API instead. */
  readonly timers?: boolean;
  /** Consume the queues (default). The fan-out benchmark turns it off to drive the worker itself. */
  readonly queueRunners?: boolean;
  /**
   * How long a message whose batch item failed stays hidden before its next receive (2 s). Tests that
   * wait for a redrive to the dead-letter queue set 0; `npm start` never sets it.
   */
  readonly retryVisibilitySeconds?: number;
  readonly seed?: boolean;
  /** The console's OpenID issuer: the embedded provider on a port of its own, or another issuer (docs/adr/0041). Off unless set. */
  readonly consoleSignIn?: ConsoleSignInOption;
  readonly adminToken?: string;
  readonly clock?: Clock;
  readonly ids?: IdGenerator;
  readonly logger?: Logger;
}

export interface RunningPlatform {
  readonly baseUrl: string;
  readonly adminToken: string;
  readonly deps: LocalDeps;
  readonly demo?: DemoCredentials;
  readonly consoleSignIn?: RunningConsoleSignIn;
  /** Waits until every queue has nothing visible left to handle (delayed messages are not visible yet). */
  drainQueues(): Promise<void>;
  stop(): Promise<void>;
}

function adminTokenFor(dataDir: string, given: string | undefined): string {
  if (given) return given;
  const file = join(dataDir, 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = `adm_${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

export async function startPlatform(opts: PlatformOptions): Promise<RunningPlatform> {
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const release = acquireDataDirLock(dataDir);
  const cleanups: (() => Promise<void> | void)[] = [release];
  const stopAll = async () => {
    for (const c of cleanups.reverse()) await c();
  };
  try {
    // The backends' thread loads and listens while this one imports the route modules (the first start's bulk).
    const backendsStarting = startBackends(dataDir, opts.persist ?? true);
    backendsStarting.catch(() => {});
    cleanups.push(async () => (await backendsStarting.catch(() => undefined))?.stop());
    const routesImported = importRouteModules();
    routesImported.catch(() => {});
    // Listening first: the base URL the platform names in its documents is the address it really has.
    const server: Server = frontDoorServer();
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolveListen());
    });
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          server.close(() => r());
          server.closeAllConnections();
        }),
    );
    const address = server.address() as AddressInfo;
    const baseUrl = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
    // The console's OpenID provider loads while the backends start (its module is most of its start-up).
    const consoleSignInStarting = opts.consoleSignIn
      ? startConsoleSignIn(opts.consoleSignIn, { dataDir, host: opts.host ?? '127.0.0.1', consoleBaseUrl: opts.publicBaseUrl ?? baseUrl })
      : undefined;
    consoleSignInStarting?.catch(() => {});
    cleanups.push(async () => (await consoleSignInStarting?.catch(() => undefined))?.stop());
    const backends = await backendsStarting;
    const aws: AwsClientOptions = { region: LOCAL_REGION, endpoints: backends.endpoints, credentials: LOCAL_CREDENTIALS };
    const tableName = 'platform';
    const bucketName = 'platform-uploads';
    const sqs = createSqsClient(aws);
    await ensureTable(new DynamoDBClient({ region: LOCAL_REGION, endpoint: backends.endpoints.dynamodb, credentials: LOCAL_CREDENTIALS }), tableName);
    await ensureBucket(createS3Client(aws), bucketName);
    const queueUrls = await ensureQueues(sqs);
    const env: EnvVars = {
      [ENV.stage]: 'local',
      [ENV.tableName]: tableName,
      [ENV.bucketName]: bucketName,
      [ENV.jobsQueueUrl]: queueUrls.jobs!,
      [ENV.webhooksQueueUrl]: queueUrls.webhooks!,
      [ENV.exportsQueueUrl]: queueUrls.exports!,
      [ENV.responsesQueueUrl]: queueUrls.responses!,
      [ENV.orderEventsQueueUrl]: queueUrls['order-events']!,
      [ENV.visibilityDelayMs]: opts.visibilityDelayMs ?? ENV_DEFAULTS.visibilityDelayMsLocal,
      [ENV.anonRetentionDays]: opts.anonRetentionDays ?? ENV_DEFAULTS.anonRetentionDays,
      [ENV.emptySessionMaxAgeHours]: opts.emptySessionMaxAgeHours ?? ENV_DEFAULTS.emptySessionMaxAgeHours,
      [ENV.appDeletionBatchSize]: opts.appDeletionBatchSize ?? ENV_DEFAULTS.appDeletionBatchSize,
      [ENV.bedrockEnabled]: 'false',
      [ENV.trustViewerAddress]: 'false',
      [ENV.publicBaseUrl]: opts.publicBaseUrl ?? baseUrl,
      ...(opts.openAiBaseUrl !== undefined ? { [ENV.openAiBaseUrl]: opts.openAiBaseUrl } : {}),
      ...(opts.openAiApiKey !== undefined ? { [ENV.openAiApiKey]: opts.openAiApiKey } : {}),
    };
    const adminToken = adminTokenFor(dataDir, opts.adminToken);
    const logger = opts.logger ?? new Logger({ serviceName: 'platform-local' });
    // Textract's local twin: tesseract.js reads scanned PDFs and posts Textract's completion notice to
    // the local OCR queue, whose worker stores the text exactly as on AWS.
    const ocr = new TesseractOcrEngine({
      objects: buildObjectStore({ env, aws }),
      bucket: bucketName,
      notify: async (completion) => {
        await sqs.send(new SendMessageCommand({ QueueUrl: queueUrls.ocr!, MessageBody: JSON.stringify(completion) }));
      },
      logger,
    });
    cleanups.push(() => ocr.close());
    const gateway = new LocalApiGateway();
    // The console's routes sign in with the running issuer; without one they answer 503.
    const consoleIssuer = (await consoleSignInStarting)?.settings;
    const deps = buildDeps({
      env,
      apiKeys: gateway,
      aws,
      adminToken,
      logger,
      secretsKeyFile: join(dataDir, 'webhook-secrets.key'),
      ...(consoleIssuer ? { consoleIssuer } : {}),
      ...(opts.resolver ? { resolver: opts.resolver } : {}),
      ...(opts.webhookNetwork ? { webhookNetwork: opts.webhookNetwork } : {}),
      ...(opts.clock ? { clock: opts.clock } : {}),
      ...(opts.ids ? { ids: opts.ids } : {}),
      ...(opts.tools ? { tools: opts.tools } : {}),
      // Locally payments go through the built-in test handler: no money moves (spt_test_ok / spt_test_declined).
      payments: opts.payments ?? new TestPaymentProvider(),
      ocr,
    });
    const log = frontDoorLog(logger, 'local');
    const devListeners = opts.devWebhookListeners ? new DevWebhookListeners(deps, adminToken) : undefined;

    const runners: QueueRunner[] = [];
    const runnerOptions = opts.retryVisibilitySeconds !== undefined ? { retryVisibilitySeconds: opts.retryVisibilitySeconds } : {};
    const workerDeps = devListeners?.workerDeps ?? deps;
    if (opts.queueRunners ?? true) for (const q of QUEUES) runners.push(await startQueueRunner(sqs, workerDeps, q, queueUrls[q.id]!, log, runnerOptions));
    // The runners share nothing: they stop side by side (every test platform's stop waits for them).
    cleanups.push(async () => {
      await Promise.all(runners.map((r) => r.stop()));
    });

    await gateway.load(deps);
    await routesImported;
    // The API reference (/docs, /api/v1/openapi.json) and the console's files in front of the routes, as the front door's bucket is on AWS.
    const compiled = await loadRoutes(deps);
    const routes = withConsole(withReference(requestListener(compiled, gateway, log)));
    attachFrontDoor(server, compiled, devListeners ? devListeners.requestListener(routes) : routes, log);

    if (opts.timers) {
      const timers = SCHEDULES.map((s) =>
        setInterval(() => {
          runJob(deps, s.id).then(
            (result) => logger.info('job finished', { job: s.id, ...result }),
            (err: unknown) => logger.error('job failed', { job: s.id, error: String(err) }),
          );
        }, rateIntervalMs(s.expression)).unref(),
      );
      cleanups.push(() => timers.forEach(clearInterval));
    }

    const demo = opts.seed ? await seedDemo(deps, dataDir, baseUrl, adminToken) : undefined;
    const consoleSignIn = await consoleSignInStarting;
    if (consoleSignIn && demo) {
      await seedConsoleMembers(deps, demo.orgId, consoleSignIn);
      recordConsoleSignIn(dataDir, consoleSignIn);
    }
    return {
      baseUrl,
      adminToken,
      deps,
      ...(demo ? { demo } : {}),
      ...(consoleSignIn ? { consoleSignIn } : {}),
      drainQueues: async () => {
        await Promise.all(runners.map((r) => r.drain()));
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
