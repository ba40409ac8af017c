import { fileCleanupProductionDeps } from '../wiring/file-cleanup-wiring';
import { lambdaJob } from './job-kit';

/** Scheduled job `file-cleanup` (functions/workers.ts): unreferenced, crash-pending and released files. */
export const handler = lambdaJob('file-cleanup', fileCleanupProductionDeps);
