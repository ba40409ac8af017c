import { matchesArea, type ReleasePeriod } from '../domain/release-notes';
import type { ReleaseNotesDeps } from './release-notes-ports';

/** The feed's periods, newest first; with `area`, only those matching the keyword (spec rule). */
export async function listReleaseFeed(deps: Pick<ReleaseNotesDeps, 'releaseNotes'>, input: { area?: string }): Promise<ReleasePeriod[]> {
  const periods = await deps.releaseNotes.listNewestFirst();
  const area = input.area;
  return area === undefined ? periods : periods.filter((p) => matchesArea(p, area));
}
