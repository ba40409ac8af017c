/**
 * Where each area lives under the one base URL: the static path prefix its routes share, taken from
 * the route table. Two areas whose prefixes overlap could not be told apart by path, so synth fails.
 * Also the headers the front door adds to every origin request, which the area stacks rely on.
 */
import { areaPathPatterns, staticPrefixOf, VIEWER_HOST_HEADER, VIEWER_IP_HEADER } from '../functions/kernel/http/api-gateway-contract';
import type { Area, RouteDef } from '../functions/kernel/route-vocabulary';

/** CloudFront sends it with a secret value; each front-door area's WAF blocks requests without it. */
export const ORIGIN_VERIFY_HEADER = 'X-Origin-Verify';

export { VIEWER_HOST_HEADER, VIEWER_IP_HEADER };

/** The longest run of leading static segments every route of the area shares: `/api/v1/org`. */
export const areaPrefix = (routes: readonly RouteDef[]): string => staticPrefixOf(routes.map((r) => r.path));

/** CloudFront path patterns of each area (`<prefix>/*` or one exact path); throws when two areas could claim one path. */
export function frontDoorPatterns(byArea: ReadonlyMap<Area, readonly RouteDef[]>): Map<Area, string[]> {
  return areaPathPatterns(new Map([...byArea].map(([area, routes]) => [area, routes.map((r) => r.path)])));
}

/** cloudfront-js-2.0 lines that set both viewer headers on `event.request` from what CloudFront saw (header names lower case). */
export function viewerHeaderCode(): string[] {
  return [
    `event.request.headers[${JSON.stringify(VIEWER_IP_HEADER.toLowerCase())}] = { value: event.viewer.ip };`,
    `event.request.headers[${JSON.stringify(VIEWER_HOST_HEADER.toLowerCase())}] = { value: event.request.headers.host ? event.request.headers.host.value : '' };`,
  ];
}
