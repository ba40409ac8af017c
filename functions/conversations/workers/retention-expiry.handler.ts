import { retentionExpiryJob } from '../app/run-retention-jobs';
import { conversationProductionDeps } from '../conversation-wiring';
import { lambdaJob } from '../../kernel/workers/job-kit';
import { CONVERSATION_SCHEDULES } from '../conversation-workers';

/** Scheduled job `retention-expiry` (functions/workers.ts). */
export const handler = lambdaJob(CONVERSATION_SCHEDULES['retention-expiry'], retentionExpiryJob, conversationProductionDeps);
