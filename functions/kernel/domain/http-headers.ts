/**
 * Reading request headers the way every entry point must: case-insensitively, from the plain header map
 * API Gateway (and the local server) hands over. Shared by the HTTP kit, the key authorizers and the
 * local gateway.
 */

export const CORRELATION_HEADER = 'X-Correlation-ID';

/** A client's correlation id is echoed only when it is a safe token of at most 128 characters. */
const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function headerOf(headers: Readonly<Record<string, string | undefined>> | null | undefined, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers ?? {})) if (k.toLowerCase() === wanted && v !== undefined) return v;
  return undefined;
}

/** The request's correlation id: the client's, when usable, or a new one from `make`. */
export function correlationIdOf(headers: Readonly<Record<string, string | undefined>> | null | undefined, make: () => string): string {
  const given = headerOf(headers, CORRELATION_HEADER);
  return given && CORRELATION_ID.test(given) ? given : make();
}
