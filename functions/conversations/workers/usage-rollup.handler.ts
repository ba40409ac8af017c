import { usageRollupJob } from '../app/roll-up-usage';
import { usageRollupProductionDeps } from '../usage-rollup-wiring';
import { lambdaJob } from '../../kernel/workers/job-kit';
import { CONVERSATION_SCHEDULES } from '../conversation-workers';

/** Scheduled job `usage-rollup` (functions/workers.ts). */
export const handler = lambdaJob(CONVERSATION_SCHEDULES['usage-rollup'], usageRollupJob, usageRollupProductionDeps);
