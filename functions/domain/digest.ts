/** Content digests of stored bytes. */
import { createHash } from 'node:crypto';

/** Hex SHA-256 of the bytes (a file record's `sha256`). */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
