/** The exports page's answers: a bulk export job as the console API shows it. */

export const EXPORT_LISTS = ['apps', 'sessions', 'usage', 'tombstones'] as const;
export type ExportList = (typeof EXPORT_LISTS)[number];

export const LIST_LABELS: Readonly<Record<ExportList, string>> = {
  apps: 'Apps',
  sessions: 'Sessions with their transcripts',
  usage: 'Usage and cost rows',
  tombstones: 'Tombstones (the deletion feed)',
};

export interface ExportJob {
  readonly id: string;
  readonly status: 'running' | 'completed' | 'failed';
  readonly lists: readonly ExportList[];
  readonly createdAt: string;
  readonly updatedAfter: string;
  readonly completedAt: string | null;
  readonly progress: readonly { readonly list: ExportList; readonly files: number; readonly done: boolean }[];
  readonly files: readonly { readonly list: ExportList; readonly url: string; readonly rows: number; readonly bytes: number }[];
  readonly urlsExpireAt: string | null;
  readonly error: string | null;
}

export const when = (iso: string): string => `${new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' })} UTC`;

export const sizeOf = (bytes: number): string =>
  bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export const STATUS_LABELS: Readonly<Record<ExportJob['status'], string>> = { running: 'Running', completed: 'Completed', failed: 'Failed' };
