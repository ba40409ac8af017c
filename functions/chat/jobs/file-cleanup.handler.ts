import { fileCleanupJob } from '../app/manage-files';
import { fileCleanupProductionDeps } from '../wiring/ocr-wiring';
import { lambdaJob } from '../../platform/jobs/job-kit';

/** Scheduled job `file-cleanup` (functions/workers.ts): unreferenced, crash-pending and released files. */
export const handler = lambdaJob('file-cleanup', fileCleanupJob, fileCleanupProductionDeps);
