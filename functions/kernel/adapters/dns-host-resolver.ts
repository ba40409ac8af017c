/**
 * Host resolution for the SSRF check: every address `getaddrinfo` returns (A and AAAA, hosts file
 * included, as the connection itself would see them), with a deadline. "No such name" is permanent;
 * anything else (SERVFAIL, timeouts) is temporary, which the delivery worker retries.
 */
import { lookup } from 'node:dns/promises';
import type { HostResolver, Resolution } from '../app/outbound-webhook-ports';

const NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

export class DnsHostResolver implements HostResolver {
  constructor(private readonly timeoutMs = 3_000) {}

  async resolve(hostname: string): Promise<Resolution> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<Resolution>((resolve) => {
      timer = setTimeout(() => resolve({ failure: 'temporary' }), this.timeoutMs);
    });
    const answer = lookup(hostname, { all: true, verbatim: true }).then(
      (records): Resolution => ({ addresses: records.map((r) => r.address) }),
      (err: NodeJS.ErrnoException): Resolution => ({ failure: NOT_FOUND.has(err.code ?? '') ? 'not_found' : 'temporary' }),
    );
    try {
      return await Promise.race([answer, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}
