/**
 * Tombstones: the content-free deletion feed. Written before anything is removed ("tombstone first").
 */
import type { Micros } from '../../kernel/domain/time';

export type TombstoneCause = 'consumer_deleted' | 'app_deleted' | 'retention_expiry' | 'support_erasure' | 'unknown';
export type TombstoneResourceType = 'session' | 'consumer';

export interface Tombstone {
  /** Sorts with `deleted_at` and breaks ties within one millisecond; opaque to clients. */
  readonly id: string;
  readonly orgId: string;
  readonly resourceType: TombstoneResourceType;
  readonly resourceId: string;
  readonly cause: TombstoneCause;
  readonly deletedAtUs: Micros;
}

/**
 * A tombstone id: the deletion time in fixed-width microseconds and a random suffix, so ids sort with
 * time and break ties inside one millisecond. Clients treat it as opaque.
 */
export function tombstoneIdOf(deletedAtUs: Micros, randomSuffix: string): string {
  return `${String(deletedAtUs).padStart(16, '0')}${randomSuffix}`;
}
