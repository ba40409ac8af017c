import { lambdaJob } from './job-kit';

/** Scheduled job `deletion-sweep` (functions/workers.ts). */
export const handler = lambdaJob('deletion-sweep');
