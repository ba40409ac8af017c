/**
 * Request body limits a route's handler enforces, and the one message that refuses a body over one:
 * the handler and, on AWS, the area's WAF rule (lib/constructs/api-firewall.ts) say it the same way.
 * No imports: synth loads this file.
 */

/** The whole chat completions request body: 5 MiB (a Lambda takes at most 6 MB; the gateway's own limit is 10 MB). */
export const MAX_CHAT_REQUEST_BYTES = 5 * 1024 * 1024;

export function bodyTooLargeMessage(maxBytes: number): string {
  const mib = maxBytes / (1024 * 1024);
  return `Request body too large: at most ${maxBytes} bytes${Number.isInteger(mib) ? ` (${mib} MiB)` : ''}`;
}
