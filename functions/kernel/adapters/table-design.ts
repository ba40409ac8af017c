/**
 * The one DynamoDB table of the platform: its key attributes and global secondary indexes.
 * Shared by the CDK data stack and the local bootstrap so both create the same table.
 * No runtime imports: synth loads this file.
 *
 * Which access pattern each index serves is written in docs/adr/0004-single-table-access-patterns.md.
 */
export interface IndexDesign {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
  /** What the index serves, for the ADR and the infra test. */
  readonly serves: string;
}

export const TABLE_DESIGN = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB TTL deletes expired rate-limit windows (dynalite ignores it: harmless locally). */
  ttlAttribute: 'expiresAt',
  indexes: [
    {
      name: 'gsi1',
      partitionKey: 'gsi1pk',
      sortKey: 'gsi1sk',
      serves:
        'org-wide keysets: sessions by org (last_activity_at, id), usage by org (created_at, id), tombstones by org (deleted_at, id), apps by org (created_at, id), keys by org',
    },
    {
      name: 'gsi2',
      partitionKey: 'gsi2pk',
      sortKey: 'gsi2sk',
      serves: 'narrower keysets: sessions by app (last_activity_at, id), tombstones by org and cause (deleted_at, id), consumers by app',
    },
    {
      name: 'gsi3',
      partitionKey: 'gsi3pk',
      sortKey: 'gsi3sk',
      serves: 'sessions by consumer (started_at, id)',
    },
    {
      name: 'gsi4',
      partitionKey: 'gsi4pk',
      sortKey: 'gsi4sk',
      serves:
        'sparse work queues for jobs: empty sessions by start, anonymous consumers by last activity, apps pending deletion, every org by (created_at, id)',
    },
  ] as const satisfies readonly IndexDesign[],
} as const;

export type IndexName = (typeof TABLE_DESIGN.indexes)[number]['name'];
