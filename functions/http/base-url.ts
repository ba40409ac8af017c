/**
 * The `{base_url}` a client used, for documents that must name absolute URLs (ACP discovery). Behind
 * the front door (`TRUST_VIEWER_ADDRESS`) it is https and the host the front door's function wrote in
 * `X-Viewer-Host`; elsewhere (the local server) the request's own `Host`, over http.
 */
import { VIEWER_HOST_HEADER } from '../gateway';
import type { KitDeps } from './kit';
import type { HttpRequest } from './kit-request';

/** A host name or address with an optional port: nothing a client could use to inject a URL. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function publicBaseUrl(deps: Pick<KitDeps, 'settings'>, req: Pick<HttpRequest, 'header'>): string {
  const behindFrontDoor = deps.settings.trustViewerAddress;
  const host = (behindFrontDoor ? req.header(VIEWER_HOST_HEADER) : req.header('host'))?.trim() ?? '';
  const safe = HOST.test(host) ? host : 'localhost';
  return `${behindFrontDoor ? 'https' : 'http'}://${safe}`;
}
