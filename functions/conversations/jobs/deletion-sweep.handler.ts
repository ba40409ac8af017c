import { deletionSweepJob } from '../app/process-app-deletion';
import { conversationQueueProductionDeps } from '../wiring/conversation-wiring';
import { lambdaJob } from '../../platform/jobs/job-kit';

/** Scheduled job `deletion-sweep` (functions/workers.ts): re-queues unfinished app deletions, finishes pending removals. */
export const handler = lambdaJob('deletion-sweep', deletionSweepJob, conversationQueueProductionDeps);
