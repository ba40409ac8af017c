import { lifecycleProductionDeps } from '../wiring/lifecycle-wiring';
import { lambdaJob } from './job-kit';

/** Scheduled job `empty-session-cleanup` (functions/workers.ts). */
export const handler = lambdaJob('empty-session-cleanup', lifecycleProductionDeps);
