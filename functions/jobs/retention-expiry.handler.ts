import { lifecycleProductionDeps } from '../wiring/lifecycle-wiring';
import { lambdaJob } from './job-kit';

/** Scheduled job `retention-expiry` (functions/workers.ts). */
export const handler = lambdaJob('retention-expiry', lifecycleProductionDeps);
