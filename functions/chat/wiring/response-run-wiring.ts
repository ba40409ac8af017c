/**
 * The responses queue, for the functions with the `responses:send` grant: the Responses route (it
 * queues background responses) and the response runner (it queues a run again). A module apart from
 * chat-wiring.ts so that the other chat functions bundle no SQS client.
 */
import { createSqsClient } from '../../kernel/adapters/aws-queue-clients';
import { ENV } from '../../kernel/env';
import { onFirstUse } from '../../tenancy/wiring/core-wiring';
import { SqsResponseRunQueue } from '../adapters/sqs-response-run-queue';
import type { ResponseRunQueue } from '../app/chat-ports';
import { buildChatDeps, NO_RESPONSE_RUNS, type ChatFunctionDeps, type ChatWiringOptions } from './chat-wiring';

/** The queue where the environment names it (the grant sets the URL); one that refuses to send otherwise. */
export function buildResponseRunQueue(opts: ChatWiringOptions): ResponseRunQueue {
  const url = opts.env[ENV.responsesQueueUrl];
  return url !== undefined ? new SqsResponseRunQueue(createSqsClient(opts.aws ?? {}), url) : NO_RESPONSE_RUNS;
}

export const responseRunnerProductionDeps = /* @__PURE__ */ onFirstUse(
  (opts): ChatFunctionDeps => ({ ...buildChatDeps(opts), responseRuns: buildResponseRunQueue(opts) }),
);
