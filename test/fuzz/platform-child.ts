/**
 * The platform under fuzz, in a process of its own (spawned by platform-process.ts): a crash caused by a
 * request must show up as a dead process the fuzzer can report, as it would under `npm start`, not as
 * an unhandled rejection swallowed by the test runner. It reports its address over IPC and stops when
 * its parent goes away, so an interrupted run leaves nothing behind.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { startPlatform } from '../../functions/local/local-platform';
import { FakeResolver } from '../support/fake-resolver';
import { CALLBACK_HOST, CALLBACK_HOST_ADDRESS } from './credentials';

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir || !process.send) throw new Error('usage: spawned by platform-process.ts with a data directory and an IPC channel');
  const platform = await startPlatform({
    dataDir,
    persist: false,
    timers: false,
    seed: false,
    logger: new Logger({ serviceName: 'platform-fuzz', logLevel: 'SILENT' }),
    resolver: new FakeResolver().set(CALLBACK_HOST, [CALLBACK_HOST_ADDRESS]),
    webhookNetwork: { allowAddresses: [CALLBACK_HOST_ADDRESS] },
  });
  const stop = () => {
    platform.stop().finally(() => process.exit(0));
  };
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  process.send({ baseUrl: platform.baseUrl, adminToken: platform.adminToken });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
