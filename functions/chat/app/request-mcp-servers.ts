/**
 * The remote MCP servers a Responses request names are checked like every webhook callback before the
 * turn runs: https, and every address the host resolves to public unicast. A server that fails is the
 * client's mistake, a 400 naming it, before anything is written or billed.
 */
import { checkCallbackUrl } from '../../kernel/app/check-callback-url';
import type { CallbackCheckDeps } from '../../kernel/app/outbound-webhook-ports';
import { badRequest } from '../../kernel/domain/errors';
import type { RequestMcpServer } from '../domain/responses-tools';

const WHY: Readonly<Record<string, string>> = {
  invalid_url: 'is not an https URL without credentials or fragment',
  refused_address: 'resolves to an address that is not public',
  dns_not_found: 'names a host that does not resolve',
  dns_temporary: 'could not be resolved just now',
};

/** The servers with the addresses their connections are pinned to (DNS is not asked again). */
export async function checkRequestMcpServers(deps: { readonly network: CallbackCheckDeps }, servers: readonly RequestMcpServer[]): Promise<RequestMcpServer[]> {
  const checks = await Promise.all(servers.map((s) => checkCallbackUrl(deps.network, s.url)));
  return servers.map((server, i) => {
    const check = checks[i]!;
    if (!check.ok) throw badRequest(`tools: the server_url of mcp server ${server.label} ${WHY[check.reason]}`);
    return { ...server, addresses: check.addresses };
  });
}
