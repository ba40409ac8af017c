/**
 * The SSRF seams of every outbound request to a URL a client gives (webhook callbacks, a Responses
 * request's MCP servers and file URLs): DNS answers and the network policy. The exceptions come only
 * from options a test passes (`webhookNetwork`): the Lambda wiring and `npm start` never do, and no
 * variable of the environment schema reaches them. No AWS client here, so a chat turn's function can
 * build its check without the webhook wiring's KMS client.
 */
import { DnsHostResolver } from '../adapters/dns-host-resolver';
import type { CallbackCheckDeps, HostResolver, WebhookNetworkPolicy } from '../app/outbound-webhook-ports';
import type { KernelWiringOptions } from './kernel-wiring';

export interface OutboundNetworkWiringOptions extends KernelWiringOptions {
  /** Tests answer DNS for callback hosts; production resolves with node:dns. */
  readonly resolver?: HostResolver;
  /** Exceptions to the SSRF policy (a loopback server with a test CA): test wiring only. */
  readonly webhookNetwork?: WebhookNetworkPolicy;
}

/** The SSRF check: node:dns, and no exception but a test's. */
export function buildCallbackCheck(opts: OutboundNetworkWiringOptions): CallbackCheckDeps {
  return { resolver: opts.resolver ?? new DnsHostResolver(), webhookExceptions: opts.webhookNetwork?.allowAddresses ?? [] };
}

/** The CA an outbound HTTPS client trusts beside the system's: a test's, where a test passed one; none otherwise. */
export function extraTrust(opts: OutboundNetworkWiringOptions): { readonly trustedCaPem?: string } {
  return opts.webhookNetwork?.trustedCaPem ? { trustedCaPem: opts.webhookNetwork.trustedCaPem } : {};
}
