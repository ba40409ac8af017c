import { emptySessionCleanupJob } from '../app/run-retention-jobs';
import { conversationProductionDeps } from '../conversation-wiring';
import { lambdaJob } from '../../kernel/workers/job-kit';
import { CONVERSATION_SCHEDULES } from '../conversation-workers';

/** Scheduled job `empty-session-cleanup` (functions/workers.ts). */
export const handler = lambdaJob(CONVERSATION_SCHEDULES['empty-session-cleanup'], emptySessionCleanupJob, conversationProductionDeps);
