/**
 * How one tombstone changes the local copy, kept apart from the tombstones pass that reads them so the
 * erasure rules (which causes are known, what a conservative erasure removes) sit in one place.
 */
import type { CopyPass, Tombstone } from './local-store';

/** Tombstone causes whose meaning the client knows. Anything else, `unknown` included, is a conservative erasure. */
const KNOWN_CAUSES: ReadonlySet<string> = new Set(['consumer_deleted', 'app_deleted', 'retention_expiry', 'support_erasure']);

/** Applies one tombstone to the copy through the pass; answers what it removed and whether it was a conservative erasure. */
export async function applyTombstone(pass: CopyPass, t: Tombstone): Promise<{ sessionsDeleted: number; consumerErased: boolean; conservative: boolean }> {
  const conservative = !KNOWN_CAUSES.has(t.cause) || (t.resource_type !== 'session' && t.resource_type !== 'consumer');
  let sessionsDeleted = 0;
  if (t.resource_type === 'session') {
    // A session tombstone covers the session's messages: both leave the copy, whatever the cause, and a
    // late listing of the session is never upserted again.
    sessionsDeleted += await pass.deleteSessions([t.resource_id]);
    await pass.markTombstoned([t.resource_id]);
  } else if (t.resource_type === 'consumer') {
    // A consumer tombstone does not imply the consumer's sessions were deleted (each deleted session
    // has its own tombstone): the consumer is recorded as erased, and sessions keep consumer_id and
    // consumer_email as the export shows them.
    await pass.markErased([t.resource_id]);
  } else {
    // A resource type this client does not know: erase anything the id names.
    const dropped = await pass.deleteSessions([t.resource_id]);
    if (dropped > 0) await pass.markTombstoned([t.resource_id]);
    sessionsDeleted += dropped;
    await pass.markErased([t.resource_id]);
  }
  if (conservative && t.resource_type !== 'session') {
    // Unknown cause (the historical `unknown` included): nothing says the consumer's sessions survived,
    // so they leave the copy too. They are not marked tombstoned: if the export lists one again after
    // a later change, it is live and comes back.
    sessionsDeleted += await pass.deleteSessionsOfConsumer(t.resource_id);
  }
  return { sessionsDeleted, consumerErased: t.resource_type !== 'session', conservative };
}
