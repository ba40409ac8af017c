/**
 * The thread the embedded backends run on (functions/local/backends.ts): dynalite, s3rver and fauxqs
 * answer here, on a core of their own, while the platform's HTTP server and handlers keep the main
 * thread. Plain JavaScript importing only the three packages, so it loads without the TypeScript loader
 * under `npm start` and vitest alike. One thread serves every platform of the process: each `start`
 * gets its own three servers on ephemeral loopback ports, kept until its `stop`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import dynalite from 'dynalite';
import { buildApp } from 'fauxqs';
import S3rver from 's3rver';

/** @type {Map<number, () => Promise<void>>} */
const running = new Map();

/** `dataDir` persists tables and files; tables live in memory when `persistTables` is false (tests). */
async function start({ dataDir, persistTables, region }) {
  const stops = [];
  // The three servers share nothing: they close side by side.
  const stop = async () => {
    await Promise.all(stops.map((s) => s()));
  };
  try {
    mkdirSync(join(dataDir, 's3'), { recursive: true });
    const dyn = dynalite({ ...(persistTables ? { path: join(dataDir, 'dynamodb') } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    await new Promise((resolve, reject) => {
      dyn.once('error', reject);
      dyn.listen(0, '127.0.0.1', () => resolve());
    });
    // Closing dynalite closes its LevelDB store: the next platform on this data directory opens it again.
    stops.push(() => new Promise((resolve) => dyn.close(() => resolve())));
    const s3 = new S3rver({ port: 0, address: '127.0.0.1', directory: join(dataDir, 's3'), silent: true });
    const s3Address = await s3.run();
    stops.push(() => s3.close());
    // fauxqs's own start helper binds every interface; its app, listened on loopback, does not.
    const sqs = buildApp({ logger: false, defaultRegion: region });
    const sqsAddress = await sqs.listen({ port: 0, host: '127.0.0.1' });
    stops.push(() => sqs.close());
    const endpoints = { dynamodb: `http://127.0.0.1:${dyn.address().port}`, s3: `http://127.0.0.1:${s3Address.port}`, sqs: sqsAddress };
    return { endpoints, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

parentPort.on('message', async (msg) => {
  try {
    if (msg.type === 'start') {
      const started = await start(msg);
      running.set(msg.set, started.stop);
      parentPort.postMessage({ set: msg.set, endpoints: started.endpoints });
    } else {
      const stop = running.get(msg.set);
      running.delete(msg.set);
      await stop?.();
      parentPort.postMessage({ set: msg.set });
    }
  } catch (err) {
    parentPort.postMessage({ set: msg.set, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
