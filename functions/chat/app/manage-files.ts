/**
 * The asynchronous halves of the file lifecycle: recording OCR results when Textract (or the local
 * engine) announces a finished job, and removing files that are no longer needed (never referenced
 * past their retention, left pending by a crash, or released with their session or app).
 */
import { UNREFERENCED_FILE_RETENTION_HOURS, textKeyOf } from '../../conversations/domain/file';
import type { ChatDeps } from './chat-ports';
import type { OcrCompletion } from '../../conversations/app/file-ports';
import type { Telemetry } from '../../kernel/app/kernel-ports';

type OcrDeps = Pick<ChatDeps, 'files' | 'objects' | 'ocr'> & Telemetry;

/**
 * One completion notice: the text of a succeeded job is stored and the file becomes readable; a failed
 * job marks the file `ocr_failed` (readPDF then says the document could not be read). A notice for a
 * file that is gone, or not waiting for this job, is dropped. Throws when storage fails (redelivered).
 */
export async function recordOcrCompletion(deps: OcrDeps, notice: OcrCompletion): Promise<'stored' | 'failed' | 'ignored'> {
  const fileId = notice.JobTag;
  const file = fileId ? await deps.files.get(fileId) : undefined;
  if (!file || (file.ocrJobId !== null && file.ocrJobId !== notice.JobId) || file.extraction !== 'ocr_pending') {
    deps.logger.info('OCR notice ignored', { jobId: notice.JobId, fileId });
    return 'ignored';
  }
  if (notice.Status !== 'SUCCEEDED' && notice.Status !== 'PARTIAL_SUCCESS') {
    await deps.files.setExtraction(file.id, 'ocr_failed', null);
    return 'failed';
  }
  const result = await deps.ocr.results(notice.JobId);
  if (result.status !== 'SUCCEEDED') {
    deps.logger.warn('OCR failed', { jobId: notice.JobId, fileId: file.id, message: result.message });
    await deps.files.setExtraction(file.id, 'ocr_failed', null);
    return 'failed';
  }
  const textKey = textKeyOf(file.appId, file.id);
  await deps.objects.put(textKey, Buffer.from(result.text, 'utf8'), 'text/plain; charset=utf-8');
  await deps.files.setExtraction(file.id, 'ready', textKey);
  return 'stored';
}

type CleanupDeps = Pick<ChatDeps, 'files' | 'objects' | 'clock'>;

/** Prefix of every object of a file (its bytes and its text). */
export function filePrefix(storageKey: string): string {
  return storageKey.slice(0, storageKey.lastIndexOf('/') + 1);
}

/**
 * Removes up to `maxFiles` files: bytes and text first, then the record, so a crash in between leaves
 * the record listed for the next run. Returns how many it removed.
 */
export async function cleanupFiles(deps: CleanupDeps, input: { maxFiles: number; retentionHours?: number }): Promise<{ removed: number }> {
  const retentionUs = (input.retentionHours ?? UNREFERENCED_FILE_RETENTION_HOURS) * 3_600_000_000;
  const removable = await deps.files.listRemovable(deps.clock.nowUs() - retentionUs, input.maxFiles);
  for (const file of removable) {
    await deps.objects.deletePrefix(filePrefix(file.storageKey));
    await deps.files.remove(file.id);
  }
  return { removed: removable.length };
}

/** Scheduled job `file-cleanup`: at most `maxItems` files per run. */
export const fileCleanupJob = (deps: CleanupDeps, maxItems: number) => cleanupFiles(deps, { maxFiles: maxItems });
