import { emptySessionCleanupJob } from '../app/run-retention-jobs';
import { conversationProductionDeps } from '../wiring/conversation-wiring';
import { lambdaJob } from '../../platform/jobs/job-kit';

/** Scheduled job `empty-session-cleanup` (functions/workers.ts). */
export const handler = lambdaJob('empty-session-cleanup', emptySessionCleanupJob, conversationProductionDeps);
