/** The jobs queue (app deletions in batches), for the functions that start lifecycle work. */
import { createSqsClient } from '../adapters/aws-queue-clients';
import { SqsJobQueue } from '../adapters/sqs-job-queue';
import { ENV } from '../env';
import type { JobQueue } from '../app/kernel-ports';
import type { KernelWiringOptions } from './kernel-wiring';

export function buildJobQueue(opts: KernelWiringOptions): JobQueue {
  return new SqsJobQueue(createSqsClient(opts.aws ?? {}), opts.env[ENV.jobsQueueUrl]);
}
