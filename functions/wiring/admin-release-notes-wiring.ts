/** Publishing a release-note period: the base admin deps plus the release-notes ports (it queues the fan-out). */
import { createDocumentClient } from '../adapters/aws-clients';
import type { ReleaseNotesPorts } from '../ports/release-notes';
import { buildAdminBaseDeps, type AdminBaseDeps } from './admin-wiring';
import { onFirstUse } from './core-wiring';
import { buildReleaseNotesPorts } from './release-notes-wiring';

export type AdminReleaseNotesDeps = AdminBaseDeps & ReleaseNotesPorts;

export const adminReleaseNotesProductionDeps = onFirstUse((opts): AdminReleaseNotesDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildAdminBaseDeps(opts, db), ...buildReleaseNotesPorts(opts, db) };
});
