/**
 * The release-notes feed and the secret-keyed subscription routes: the table only. A module of its own,
 * so their bundles hold no KMS, SQS or DNS client (the SDK packages are not side-effect free, so an
 * unused import of them would stay in the bundle).
 */
import { createDocumentClient } from '../adapters/aws-clients';
import { DynamoDeliveryLog } from '../adapters/dynamo-delivery-log';
import { DynamoReleaseNoteStore } from '../adapters/dynamo-release-note-store';
import { DynamoSubscriptionStore } from '../adapters/dynamo-subscription-store';
import { ENV } from '../env';
import type { ReleaseNotesPorts } from '../ports/release-notes';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from './core-wiring';

export type ReleaseNotesReadDeps = CoreDeps & Pick<ReleaseNotesPorts, 'releaseNotes' | 'subscriptions' | 'deliveryLog'>;

export function buildReleaseNotesReadDeps(opts: WiringOptions): ReleaseNotesReadDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return {
    ...buildCoreDeps(opts, db),
    releaseNotes: new DynamoReleaseNoteStore(db, table),
    subscriptions: new DynamoSubscriptionStore(db, table),
    deliveryLog: new DynamoDeliveryLog(db, table),
  };
}

export const releaseNotesReadProductionDeps = onFirstUse(buildReleaseNotesReadDeps);
