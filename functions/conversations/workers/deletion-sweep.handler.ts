import { deletionSweepJob } from '../app/process-app-deletion';
import { conversationQueueProductionDeps } from '../conversation-wiring';
import { lambdaJob } from '../../kernel/workers/job-kit';
import { CONVERSATION_SCHEDULES } from '../conversation-workers';

/** Scheduled job `deletion-sweep` (functions/workers.ts): re-queues unfinished app deletions, finishes pending removals. */
export const handler = lambdaJob(CONVERSATION_SCHEDULES['deletion-sweep'], deletionSweepJob, conversationQueueProductionDeps);
