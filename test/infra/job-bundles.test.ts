/**
 * LEAN JOB BUNDLES: each scheduled job (and the jobs worker) bundles only the clients its use case
 * needs (ADR 0014). The lifecycle functions are bundled with esbuild as AppFunction bundles them (the
 * settings of bench/lambda-esbuild.ts, nothing written to disk) and the inputs of each bundle are
 * checked against the heavy clients it may carry: a job that regains S3, Secrets Manager, Stripe or
 * SQS it does not use fails here, and so does one whose wiring lost a client its job needs.
 */
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { lambdaEsbuildOptions } from '../../bench/lambda-esbuild';

const ROOT = resolve(import.meta.dirname, '../..');

/** A heavy client, by the bundle inputs that mean it is in. */
const HEAVY = {
  s3: /node_modules\/@aws-sdk\/client-s3\//,
  secretsManager: /node_modules\/@aws-sdk\/client-secrets-manager\//,
  stripe: /^functions\/acp\/adapters\/stripe-payment-provider\.ts$/,
  sqs: /node_modules\/@aws-sdk\/client-sqs\//,
} as const;
type Heavy = keyof typeof HEAVY;

/** Entry module -> the heavy clients its use case needs; every other one must be absent. */
const EXPECTED: Record<string, readonly Heavy[]> = {
  'functions/conversations/workers/retention-expiry.handler.ts': [],
  'functions/conversations/workers/empty-session-cleanup.handler.ts': [],
  'functions/conversations/workers/deletion-sweep.handler.ts': ['sqs'],
  'functions/conversations/workers/usage-rollup.handler.ts': [],
  'functions/chat/workers/file-cleanup.handler.ts': ['s3'],
  // Stripe's key is read from Secrets Manager on the first charge; order events left behind are queued again.
  'functions/acp/workers/checkout-recovery.handler.ts': ['stripe', 'secretsManager', 'sqs'],
  // The order-events worker sends order events and queues its retries: it never charges.
  'functions/acp/workers/order-events-worker.handler.ts': ['sqs'],
  'functions/conversations/workers/jobs-worker.handler.ts': ['sqs'],
  // The admin routes that start lifecycle work: an app deletion only queues it; a job run now may run any job.
  'functions/tenancy/http/admin-app-delete.handler.ts': ['sqs'],
  'functions/jobs/http/admin-job-run.handler.ts': ['s3', 'secretsManager', 'sqs', 'stripe'],
};

async function heavyClientsOf(entry: string): Promise<Heavy[]> {
  const result = await build({ ...lambdaEsbuildOptions(ROOT, entry, 'out'), write: false });
  // Inputs that contribute no bytes (tree-shaken away) do not count as carried.
  const inputs = Object.values(result.metafile.outputs).flatMap((o) =>
    Object.entries(o.inputs)
      .filter(([, v]) => v.bytesInOutput > 0)
      .map(([k]) => k),
  );
  return (Object.keys(HEAVY) as Heavy[]).filter((h) => inputs.some((i) => HEAVY[h].test(i)));
}

describe('lifecycle function bundles', () => {
  it.each(Object.entries(EXPECTED))('%s carries exactly the heavy clients its job uses', async (entry, expected) => {
    expect((await heavyClientsOf(entry)).sort()).toEqual([...expected].sort());
  });
});
