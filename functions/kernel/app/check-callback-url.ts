import { checkAddresses, parseCallbackUrl } from '../domain/webhook-callback';
import type { CallbackCheckDeps } from './outbound-webhook-ports';

export type CallbackCheck =
  | { readonly ok: true; readonly url: string; readonly hostname: string; readonly addresses: readonly string[] }
  | { readonly ok: false; readonly reason: 'invalid_url' | 'refused_address' | 'dns_not_found' | 'dns_temporary'; readonly detail: string };

/**
 * The SSRF check of webhook callbacks (ADR 0011), for every area that sends webhooks, run when a
 * callback is registered and again before every delivery attempt: parse the URL (https, no userinfo,
 * no fragment, no control characters), resolve the host to all its A/AAAA answers (IP literals are
 * taken as they are), and accept only when every address is ordinary public unicast. The accepted addresses are the only ones the sender may connect to.
 * `detail` is for logs and 400 messages: it names the rule, never a resolved address.
 */
export async function checkCallbackUrl(deps: CallbackCheckDeps, raw: string): Promise<CallbackCheck> {
  const parsed = parseCallbackUrl(raw);
  if (!parsed.ok) return { ok: false, reason: 'invalid_url', detail: parsed.problem };
  const { href, hostname, literal } = parsed.target;
  let addresses: readonly string[];
  if (literal) {
    addresses = [literal];
  } else {
    const resolution = await deps.resolver.resolve(hostname);
    if ('failure' in resolution) {
      return { ok: false, reason: resolution.failure === 'not_found' ? 'dns_not_found' : 'dns_temporary', detail: resolution.failure };
    }
    addresses = resolution.addresses;
  }
  const verdict = checkAddresses(addresses, deps.webhookExceptions);
  if (!verdict.allowed) return { ok: false, reason: 'refused_address', detail: verdict.range };
  return { ok: true, url: href, hostname, addresses };
}
