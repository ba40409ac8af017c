/** The wire shape of a bulk snapshot export job (docs/adr/0031). */
import { microsToIso } from '../../kernel/domain/time';
import type { ExportJobView } from '../app/export-jobs';

export function exportJobBody(view: ExportJobView) {
  const { job } = view;
  const completed = job.status === 'completed';
  return {
    id: job.id,
    status: job.status,
    lists: job.lists,
    created_at: microsToIso(job.createdAtUs),
    /** Continue incrementally from here: `updated_after` for sessions, `since` for usage. */
    updated_after: microsToIso(job.watermarkUs),
    completed_at: job.completedAtUs !== undefined ? microsToIso(job.completedAtUs) : null,
    progress: job.progress.map((p) => ({ list: p.list, files: job.files.filter((f) => f.list === p.list).length, done: p.done })),
    files: completed ? job.files.map((f, i) => ({ list: f.list, url: view.urls[i]!, rows: f.rows, bytes: f.bytes })) : [],
    urls_expire_at: completed ? microsToIso(view.urlsExpireAtUs) : null,
    error: job.error ?? null,
  };
}
