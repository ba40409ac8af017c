import { retentionExpiryJob } from '../app/run-retention-jobs';
import { conversationProductionDeps } from '../wiring/conversation-wiring';
import { lambdaJob } from '../../platform/jobs/job-kit';

/** Scheduled job `retention-expiry` (functions/workers.ts). */
export const handler = lambdaJob('retention-expiry', retentionExpiryJob, conversationProductionDeps);
