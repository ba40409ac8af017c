/**
 * The release-notes feed and the secret-keyed subscription routes: the table only. A module of its own,
 * so their bundles hold no KMS, SQS or DNS client (the SDK packages are not side-effect free, so an
 * unused import of them would stay in the bundle).
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../platform/adapters/aws-clients';
import { DynamoDeliveryLog } from '../adapters/dynamo-delivery-log';
import { DynamoReleaseNoteStore } from '../adapters/dynamo-release-note-store';
import { DynamoSubscriptionStore } from '../adapters/dynamo-subscription-store';
import { ENV } from '../../platform/env';
import type { ReleaseNotesPorts } from '../ports/release-notes-ports';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from '../../platform/wiring/core-wiring';

export type ReleaseNotesStorePorts = Pick<ReleaseNotesPorts, 'releaseNotes' | 'subscriptions' | 'deliveryLog'>;
export type ReleaseNotesReadDeps = CoreDeps & ReleaseNotesStorePorts;

/** The release-notes stores: periods, subscriptions and the delivery log. */
export function buildReleaseNotesStores(db: DynamoDBDocumentClient, table: string): ReleaseNotesStorePorts {
  return {
    releaseNotes: new DynamoReleaseNoteStore(db, table),
    subscriptions: new DynamoSubscriptionStore(db, table),
    deliveryLog: new DynamoDeliveryLog(db, table),
  };
}

export function buildReleaseNotesReadDeps(opts: WiringOptions): ReleaseNotesReadDeps {
  const db = createDocumentClient(opts.aws ?? {});
  return { ...buildCoreDeps(opts, db), ...buildReleaseNotesStores(db, opts.env[ENV.tableName]) };
}

export const releaseNotesReadProductionDeps = onFirstUse(buildReleaseNotesReadDeps);
