/** Wire shapes of the admin API's conversation resources (camelCase, like the rest of the admin API). */
import { microsToIso } from '../../kernel/domain/time';
import type { Tombstone } from '../domain/tombstone';

export function adminTombstone(t: Tombstone) {
  return { id: t.id, resourceType: t.resourceType, resourceId: t.resourceId, cause: t.cause, deletedAt: microsToIso(t.deletedAtUs) };
}
