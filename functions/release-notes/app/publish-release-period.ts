import { buildPeriod, type PeriodDraft, type ReleasePeriod } from '../domain/release-notes';
import type { ReleaseNotesDeps } from './release-notes-ports';

/**
 * Publishes a release-note period: stores it (the feed shows it from now on) and starts the fan-out
 * to every active subscription whose filters match, in one step. Publishing the same range again
 * replaces the period; a changed one is a new revision and is delivered again, an unchanged one is
 * not (each attempt is recorded per subscription, period, revision), so a retried publish is safe.
 */
export async function publishReleasePeriod(
  deps: Pick<ReleaseNotesDeps, 'releaseNotes' | 'webhookQueue' | 'clock'>,
  draft: PeriodDraft,
): Promise<ReleasePeriod> {
  const period = buildPeriod(draft, deps.clock.nowUs());
  await deps.releaseNotes.put(period);
  await deps.webhookQueue.send([{ type: 'fan-out', periodId: period.id, revision: period.revision }]);
  return period;
}
