import { fileCleanupJob } from '../app/manage-files';
import { fileCleanupProductionDeps } from '../wiring/ocr-wiring';
import { lambdaJob } from '../../kernel/workers/job-kit';
import { CHAT_SCHEDULES } from '../chat-workers';

/** Scheduled job `file-cleanup` (functions/workers.ts): unreferenced, crash-pending and released files. */
export const handler = lambdaJob(CHAT_SCHEDULES['file-cleanup'], fileCleanupJob, fileCleanupProductionDeps);
