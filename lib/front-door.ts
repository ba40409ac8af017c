/**
 * Where each area lives under the one base URL: the static path prefix its routes share, taken from
 * the route table. Two areas whose prefixes overlap could not be told apart by path, so synth fails.
 */
import type { Area, RouteDef } from '../functions/routes';

/** The longest run of leading static segments every route of the area shares: `/api/v1/org`. */
export function areaPrefix(routes: readonly RouteDef[]): string {
  const split = routes.map((r) => r.path.split('/').filter(Boolean));
  const prefix: string[] = [];
  for (let i = 0; ; i++) {
    const seg = split[0]?.[i];
    if (seg === undefined || seg.startsWith('{') || !split.every((s) => s[i] === seg && s.length > i + 1)) break;
    prefix.push(seg);
  }
  if (!prefix.length) throw new Error('an area of the front door needs a static path prefix shared by its routes');
  return `/${prefix.join('/')}`;
}

/** CloudFront path patterns of each area (`<prefix>/*`); throws when two areas could claim one path. */
export function frontDoorPatterns(byArea: ReadonlyMap<Area, readonly RouteDef[]>): Map<Area, string> {
  const prefixes = new Map([...byArea].map(([area, routes]) => [area, areaPrefix(routes)]));
  for (const [a, pa] of prefixes) {
    for (const [b, pb] of prefixes) {
      if (a !== b && (pa === pb || pa.startsWith(`${pb}/`))) throw new Error(`front door: area ${a} (${pa}) overlaps area ${b} (${pb})`);
    }
  }
  return new Map([...prefixes].map(([area, prefix]) => [area, `${prefix}/*`]));
}
