/**
 * The `{base_url}` a client used, for documents that must name absolute URLs (ACP discovery, the agent
 * cards, the feed's links). It is configuration, never the client's `Host` header, which anyone can
 * set: the configured `PUBLIC_BASE_URL` (the local server always has one), or behind the front door
 * (`TRUST_VIEWER_ADDRESS`) https and the host the front door's function wrote in `X-Viewer-Host`, or
 * the domain API Gateway itself reports. Nothing else is a source.
 */
import { VIEWER_HOST_HEADER } from './api-gateway-contract';
import type { KitDeps } from './kit';
import type { HttpRequest } from './kit-request';

/** A host name or address with an optional port: nothing a client could use to inject a URL. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function publicBaseUrl(deps: Pick<KitDeps, 'settings'>, req: Pick<HttpRequest, 'header' | 'event'>): string {
  if (deps.settings.publicBaseUrl) return deps.settings.publicBaseUrl;
  const host = deps.settings.trustViewerAddress
    ? req.header(VIEWER_HOST_HEADER)?.trim()
    : (req.event.requestContext as { domainName?: string } | undefined)?.domainName;
  return `https://${host && HOST.test(host) ? host : 'localhost'}`;
}
