/** Content digests of stored bytes and of requests (idempotency fingerprints). */
import { createHash } from 'node:crypto';

/** Hex SHA-256 of the bytes (a file record's `sha256`). */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** SHA-256 of bytes that arrive in pieces: `hex()` once all of them went through `update`. */
export function sha256Digest(): { update(bytes: Uint8Array): void; hex(): string } {
  const hash = createHash('sha256');
  return { update: (bytes) => void hash.update(bytes), hex: () => hash.digest('hex') };
}

/** JSON with object keys sorted at every level: two bodies that mean the same fingerprint the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Hex SHA-256 of a request's canonical JSON: two requests that mean the same have the same fingerprint. */
export function requestFingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
