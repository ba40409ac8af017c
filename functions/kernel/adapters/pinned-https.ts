/**
 * What every outbound request to a client-given URL shares (webhook deliveries, the Responses API's
 * file URLs): the connection pinned to the addresses the SSRF check accepted (ADR 0011), and a failed
 * attempt told apart as a timeout, a TLS failure or another network failure.
 */
import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { DeliveryErrorClass } from '../domain/outbound-webhook';

/**
 * A connect-time `lookup` that hands back only `addresses`, so the socket goes to a checked IP while
 * TLS SNI, certificate checks and the Host header keep the hostname. IP literals never reach it (Node
 * connects to them directly); the check has accepted them already.
 */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const pinned: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    if (pinned.length === 0) return callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), []);
    if (options.all) return callback(null, pinned);
    return callback(null, pinned[0]!.address, pinned[0]!.family);
  };
}

/** SNI for a host: none for an IP literal (its certificate's IP entries are checked instead). */
export function serverNameOf(hostname: string): string {
  return isIP(hostname) ? '' : hostname;
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/** The class of a failed attempt, from the error and its causes. */
export function failureClassOf(err: unknown): DeliveryErrorClass {
  for (let e = err as { name?: string; code?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.name === 'TimeoutError' || e.code === 'ETIMEDOUT') return 'timeout';
    if (TLS_CODES.test(e.code ?? '')) return 'tls';
  }
  return 'network';
}
