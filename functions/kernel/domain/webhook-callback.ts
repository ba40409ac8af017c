/**
 * The SSRF rules for webhook callback URLs (ADR 0011), as pure functions shared by every area that
 * sends webhooks: parsing the URL, and classifying each address the host resolves to. Only ordinary
 * public unicast passes. The same rules run when a callback is registered (a release-notes
 * subscription) and before every delivery attempt.
 *
 * Node's URL parser turns many spellings into loopback (`127.1`, `2130706433`, `0x7f.0.0.1`,
 * `0177.0.0.1`, full-width digits, `127。0。0。1`, a trailing dot): the checks look at the parsed host,
 * never at the raw string.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export const CALLBACK_URL_MAX_CHARS = 2048;

export interface CallbackTarget {
  /** The normalized URL (`URL#href`): what is stored and requested. */
  readonly href: string;
  /** The host to resolve and to present in SNI and Host (IPv6 literals without brackets). */
  readonly hostname: string;
  /** Set when the host is an IP literal: it is checked directly, there is nothing to resolve. */
  readonly literal?: string;
}

export type CallbackUrlProblem = 'malformed' | 'not_https' | 'userinfo' | 'fragment' | 'too_long';

export type ParsedCallback = { readonly ok: true; readonly target: CallbackTarget } | { readonly ok: false; readonly problem: CallbackUrlProblem };

// C0 controls, DEL, C1 controls and backslashes: the URL parser would drop or reinterpret them.
const FORBIDDEN_RAW = /[\u0000-\u0020\u007F-\u009F\\]/;

/** Step 1: reject control characters and backslashes, parse, require https, no userinfo, no fragment. */
export function parseCallbackUrl(raw: string): ParsedCallback {
  if (raw.length > CALLBACK_URL_MAX_CHARS) return { ok: false, problem: 'too_long' };
  if (FORBIDDEN_RAW.test(raw)) return { ok: false, problem: 'malformed' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'malformed' };
  }
  if (url.protocol !== 'https:') return { ok: false, problem: 'not_https' };
  if (url.username || url.password) return { ok: false, problem: 'userinfo' };
  if (url.hash || raw.includes('#')) return { ok: false, problem: 'fragment' };
  if (!url.hostname) return { ok: false, problem: 'malformed' };
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const literal = isIP(hostname) ? hostname : undefined;
  return { ok: true, target: { href: url.href, hostname, ...(literal ? { literal } : {}) } };
}

/** Why an address is not ordinary public unicast (ipaddr.js range names, or an embedded form). */
export type AddressVerdict = { readonly allowed: true } | { readonly allowed: false; readonly range: string };

/** An IPv4 address carried inside an IPv6 one by a transition mechanism, and the mechanism. */
function embeddedIpv4(v6: ipaddr.IPv6): { form: string; v4: ipaddr.IPv4 } | undefined {
  const b = v6.toByteArray();
  const v4 = (o: number, flip = false) => new ipaddr.IPv4(b.slice(o, o + 4).map((x) => (flip ? x ^ 0xff : x)));
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return { form: 'ipv4Mapped', v4: v4(12) };
  // ::/96 minus :: and ::1, which are themselves (unspecified, loopback).
  if (zero(0, 12) && !(zero(12, 15) && b[15]! <= 1)) return { form: 'ipv4Compatible', v4: v4(12) };
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) return { form: 'nat64', v4: v4(12) };
  if (b[0] === 0x20 && b[1] === 0x02) return { form: '6to4', v4: v4(2) };
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00) return { form: 'teredo', v4: v4(12, true) };
  return undefined;
}

/**
 * Step 2, per address: allowed only when ipaddr.js calls it `unicast` (not loopback, private,
 * link-local, unique-local, CGNAT, unspecified, multicast, broadcast, reserved or documentation), and
 * when it is not an IPv6 transition form (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo): those
 * reach IPv4 space through a gateway, so they are refused whatever they embed; the embedded address
 * is named in the verdict.
 */
export function classifyAddress(address: string): AddressVerdict {
  if (!ipaddr.isValid(address) || !isIP(address)) return { allowed: false, range: 'invalid' };
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const embedded = embeddedIpv4(parsed as ipaddr.IPv6);
    if (embedded) return { allowed: false, range: `${embedded.form}(${embedded.v4.range()})` };
  }
  const range = parsed.range();
  return range === 'unicast' ? { allowed: true } : { allowed: false, range };
}

/** The canonical text of an address, for comparing with an exception list. */
export function normalizeAddress(address: string): string {
  return ipaddr.isValid(address) ? ipaddr.parse(address).toNormalizedString() : address;
}

/**
 * Every resolved address must pass (one private answer among public ones is a rejection: the
 * connection could land on any of them). `exceptions` are exact addresses a test wiring allows.
 */
export function checkAddresses(addresses: readonly string[], exceptions: readonly string[] = []): AddressVerdict {
  if (addresses.length === 0) return { allowed: false, range: 'no_address' };
  const allowedExtra = new Set(exceptions.map(normalizeAddress));
  for (const address of addresses) {
    if (allowedExtra.has(normalizeAddress(address))) continue;
    const verdict = classifyAddress(address);
    if (!verdict.allowed) return verdict;
  }
  return { allowed: true };
}
