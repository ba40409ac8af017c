/** The random values of a login (RFC 7636 PKCE verifier, `state`, `nonce`) and the S256 code challenge. */
import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: 43 characters, inside PKCE's 43–128 and beyond guessing. */
export function randomUrlToken(): string {
  return randomBytes(32).toString('base64url');
}

export function codeChallenge(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier, 'ascii').digest('base64url');
}
