import { lambdaJob } from './job-kit';

/** Scheduled job `app-deletion-sweep` (functions/workers.ts). */
export const handler = lambdaJob('app-deletion-sweep');
