/**
 * Session rows with their transcripts, as the messages endpoint gives them: none for a Zero Data
 * Retention app (only that the session still exists is read), an open turn hidden. Read 16 sessions at
 * once, a batch at a time, so a caller that has enough stops before reading more.
 */
import type { Session } from '../../conversations/domain/session';
import type { SessionWithMessages } from '../domain/export-rows';
import type { ExportDeps } from './export-ports';

const READS_AT_ONCE = 16;

export interface TranscriptBatch {
  /** Where the batch starts in the sessions given. */
  readonly from: number;
  /** Each session's row, or undefined for a session removed since it was listed (its tombstone follows). */
  readonly rows: readonly (SessionWithMessages | undefined)[];
}

export async function* transcriptBatches(deps: Pick<ExportDeps, 'apps' | 'sessions'>, sessions: readonly Session[]): AsyncGenerator<TranscriptBatch> {
  const zdrOf = new Map<string, Promise<boolean>>();
  const zdr = (appId: string) => {
    if (!zdrOf.has(appId))
      zdrOf.set(
        appId,
        deps.apps.get(appId).then((a) => a?.settings.zeroDataRetention ?? false),
      );
    return zdrOf.get(appId)!;
  };
  const read = async (session: Session): Promise<SessionWithMessages | undefined> => {
    if (await zdr(session.appId)) return (await deps.sessions.get(session.id)) ? { session, messages: [], zdr: true } : undefined;
    const t = await deps.sessions.transcript(session.id);
    return t ? { session, messages: t.messages, zdr: false } : undefined;
  };
  for (let from = 0; from < sessions.length; from += READS_AT_ONCE) {
    yield { from, rows: await Promise.all(sessions.slice(from, from + READS_AT_ONCE).map(read)) };
  }
}
