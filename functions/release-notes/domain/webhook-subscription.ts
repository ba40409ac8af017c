/**
 * Webhook subscriptions and their signing secrets (spec, area D; docs/design.md §4). A secret is `whsec_`
 * plus 40 CSPRNG base62 characters, shown once. It must stay usable for HMAC, so it is kept encrypted,
 * beside its SHA-256 (the lookup key of list and delete) and its last four characters (maskedSecret).
 */
import { createHash } from 'node:crypto';
import type { ChangeKind, SubscriptionFilters } from './release-notes';
import type { Micros } from '../../kernel/domain/time';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/**
 * 40 base62 characters (~238 bits). A multiple of four, so the same characters are also valid base64:
 * Standard Webhooks verifiers decode the part after `whsec_` as base64 and get a 30-byte key.
 */
export const WEBHOOK_SECRET_RANDOM_LENGTH = 40;

const SECRET_FORMAT = /^whsec_[A-Za-z0-9]{40}$/;

export function isWellFormedSecret(secret: string): boolean {
  return SECRET_FORMAT.test(secret);
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function lastFour(secret: string): string {
  return secret.slice(-4);
}

/** `whsec_` + a fixed-width mask + the last four characters: the length of the secret is not shown. */
export function maskSecret(last4: string): string {
  return `${WEBHOOK_SECRET_PREFIX}${'*'.repeat(8)}${last4}`;
}

export interface WebhookSubscription extends SubscriptionFilters {
  readonly id: string;
  readonly callbackUrl: string;
  readonly areas: readonly string[];
  readonly categories: readonly ChangeKind[];
  readonly isActive: boolean;
  readonly secretHash: string;
  readonly secretLast4: string;
  /** The secret encrypted by the SecretSealer (KMS on AWS, a local key file locally). */
  readonly sealedSecret: string;
  readonly createdAtUs: Micros;
  readonly updatedAtUs: Micros;
}

export const SUBSCRIPTION_LIMITS = { areas: 20, areaChars: 100 } as const;

/** Areas are keywords: trimmed, empty ones dropped, case-insensitive duplicates removed. */
export function normalizeAreas(areas: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const a of areas.map((x) => x.trim()).filter(Boolean)) {
    if (seen.has(a.toLowerCase())) continue;
    seen.add(a.toLowerCase());
    out.push(a);
  }
  return out;
}
