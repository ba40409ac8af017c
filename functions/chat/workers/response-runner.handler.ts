/**
 * The responses queue consumer: one background response a message, run as a chat turn
 * (app/background-responses.ts). A body that is no run message is poison; a delivery that throws is
 * delivered again (a response not stored yet, a run another worker still holds).
 */
import { runBackgroundResponse } from '../app/background-responses';
import { lambdaQueueHandler, sqsConsumer, type QueueHandler } from '../../kernel/workers/queue-kit';
import { parseResponseRunMessage } from './response-run-message';
import type { ChatFunctionDeps } from '../wiring/chat-wiring';
import { responseRunnerProductionDeps } from '../wiring/response-run-wiring';

export const createHandler = (deps: ChatFunctionDeps): QueueHandler =>
  sqsConsumer(deps, {
    name: 'response-runner',
    concurrent: false,
    parse: parseResponseRunMessage,
    handle: (message) => runBackgroundResponse(deps, message),
  });

export const handler = lambdaQueueHandler(createHandler, responseRunnerProductionDeps);
