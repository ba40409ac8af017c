/** Publishing a release-note period: the base admin deps plus the release-notes ports (it queues the fan-out). */
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import type { ReleaseNotesPorts } from '../ports/release-notes-ports';
import { buildAdminBaseDeps, type AdminBaseDeps } from '../../platform/wiring/admin-wiring';
import { onFirstUse } from '../../platform/wiring/core-wiring';
import { buildReleaseNotesPorts } from './release-notes-wiring';

export type AdminReleaseNotesDeps = AdminBaseDeps & ReleaseNotesPorts;

export const adminReleaseNotesProductionDeps = onFirstUse((opts): AdminReleaseNotesDeps => {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildAdminBaseDeps(opts, db), ...buildReleaseNotesPorts(opts, db) };
});
