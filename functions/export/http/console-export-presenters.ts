/**
 * Wire shapes of area A's console resources: camelCase in a `data` envelope, built from the export's own
 * rows (export/domain/export-rows.ts), so the console shows what an org key reads, field for field.
 */
import { decodePositionCursor, encodePositionCursor } from '../../kernel/domain/position-cursor';
import type { Message, Session } from '../../conversations/domain/session';
import type { KeysetPosition } from '../domain/cursor';
import type { ExportJob } from '../domain/export-job';
import { exportMessage, exportSession } from '../domain/export-rows';
import { exportJobBody } from './export-job-presenter';
import type { ExportJobView } from '../app/export-jobs';

/**
 * A session of the list: ids, app, consumer and times. `title` is the first user message's text (chat
 * names a session by it), so only a caller who may read transcripts gets it; others get null.
 */
export function consoleSession(s: Session, showTitle: boolean) {
  const row = exportSession(s);
  return {
    id: row.id,
    appId: row.app_id,
    consumerId: row.consumer_id,
    consumerEmail: row.consumer_email,
    externalId: row.external_id,
    source: row.source,
    title: showTitle ? row.title : null,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    lastActivityAt: row.last_activity_at,
    lastMessageAt: row.last_message_at,
  };
}

/** A message as the export's messages list shows it with `include=tool_details`, and the files attached to it. */
export function consoleMessage(m: Message) {
  const { created_at: createdAt, ...rest } = exportMessage(m, true);
  const files = m.files?.map((f) => ({ fileId: f.fileId, fileName: f.fileName, kind: f.kind }));
  return { ...rest, createdAt, ...(files?.length ? { files } : {}) };
}

/** A transcript: the session with its query parameters, its messages in order, and whether the app keeps none (ZDR). */
export function consoleTranscript(t: { session: Session; messages: readonly Message[]; zdr: boolean }) {
  return {
    session: { ...consoleSession(t.session, true), queryParams: t.session.queryParams.map((q) => ({ name: q.name, value: q.value })) },
    zdr: t.zdr,
    messages: t.messages.map(consoleMessage),
  };
}

/** A bulk export job, as the org key's export shows it; `files` carry their download links once completed. */
export function consoleExportJob(view: ExportJobView) {
  const body = exportJobBody(view);
  return {
    id: body.id,
    status: body.status,
    lists: body.lists,
    createdAt: body.created_at,
    updatedAfter: body.updated_after,
    completedAt: body.completed_at,
    progress: body.progress,
    files: body.files,
    urlsExpireAt: body.urls_expire_at,
    error: body.error,
  };
}

/** A job in a list: its state without files or links (reading the job gives them). */
export function consoleExportJobSummary(job: ExportJob) {
  return { ...consoleExportJob({ job, urls: [], urlsExpireAtUs: 0 }), files: [], urlsExpireAt: null };
}

/** The cursor of a page of jobs: the last job's creation time and id, in the caller's own org's partition. */
export const exportJobCursor = (job: ExportJob) => encodePositionCursor(job.createdAtUs, job.id);

export function exportJobPosition(cursor: string): KeysetPosition {
  const { us, id } = decodePositionCursor(cursor, 64);
  return { sortUs: us, id };
}
