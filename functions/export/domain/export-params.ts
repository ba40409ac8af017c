/**
 * Query parameters of the org export lists, validated exactly as the spec writes: a malformed or
 * present-but-empty value is a 400 with the spec's message, never an unfiltered result.
 */
import { badRequest } from '../../kernel/domain/errors';
import { parseIsoToMicros, type Micros } from '../../kernel/domain/time';
import { isUuid } from '../../kernel/domain/ids';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

export const TIMESTAMP_EXAMPLE = '2026-01-31T12:00:00.000Z';
export const UUID_EXAMPLE = '123e4567-e89b-12d3-a456-426614174000';

export interface LimitOutcome {
  readonly limit: number;
  /** The headers of a clamped limit (`Warning`, `X-Svc-Limit-Clamped`), empty otherwise. */
  readonly headers: Record<string, string>;
}

/** `limit`: default 50; a positive integer; above 100 it is clamped with headers saying so. */
export function parseLimit(raw: string | undefined): LimitOutcome {
  if (raw === undefined) return { limit: DEFAULT_LIMIT, headers: {} };
  if (!/^\d+$/.test(raw) || /^0+$/.test(raw)) {
    throw badRequest('Invalid limit: must be a positive integer (default 50, maximum 100)');
  }
  const normalized = raw.replace(/^0+/, '');
  if (normalized.length <= 3 && Number(normalized) <= MAX_LIMIT) return { limit: Number(normalized), headers: {} };
  return {
    limit: MAX_LIMIT,
    headers: {
      Warning: `299 - "limit ${normalized} exceeds the maximum of ${MAX_LIMIT}; clamped to ${MAX_LIMIT}"`,
      'X-Svc-Limit-Clamped': `requested=${normalized},clamped_to=${MAX_LIMIT}`,
    },
  };
}

/** An ISO 8601 filter value, sub-millisecond part floored. */
export function parseTimestampParam(name: string, raw: string | undefined): Micros | undefined {
  if (raw === undefined) return undefined;
  const us = parseIsoToMicros(raw);
  if (us === undefined) throw badRequest(`Invalid ${name}: must be an ISO 8601 timestamp (e.g. ${TIMESTAMP_EXAMPLE})`);
  return us;
}

export function parseUuidParam(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!isUuid(raw)) throw badRequest(`Invalid ${name}: must be a UUID (e.g. ${UUID_EXAMPLE})`);
  return raw.toLowerCase();
}

/** A non-empty free-form value (the `cause` filter: an open string, matched exactly). */
export function parseTokenParam(name: string, raw: string | undefined, maxLength = 128): string | undefined {
  if (raw === undefined) return undefined;
  if (raw.trim().length === 0 || raw.length > maxLength || /[\u0000-\u001f\u007f]/.test(raw)) {
    throw badRequest(`Invalid ${name}: must be a non-blank value of at most ${maxLength} characters without control characters`);
  }
  return raw;
}

/** `include`: a comma-separated subset of `allowed`; an unknown or empty member is a 400. */
export function parseIncludeParam(raw: string | undefined, allowed: readonly string[]): Set<string> {
  if (raw === undefined) return new Set();
  const parts = raw.split(',').map((p) => p.trim());
  const bad = parts.filter((p) => !allowed.includes(p));
  if (parts.length === 0 || bad.length > 0) throw badRequest(`Invalid include: must be a comma-separated list of ${allowed.join(', ')}`);
  return new Set(parts);
}

/** `include` of the sessions list: `messages`, and `tool_details` only beside it (markers of messages the row carries). */
export function parseSessionsInclude(raw: string | undefined): Set<string> {
  const include = parseIncludeParam(raw, ['messages', 'tool_details']);
  if (include.has('tool_details') && !include.has('messages')) throw badRequest('Invalid include: tool_details needs messages on the sessions list');
  return include;
}
