/**
 * How the local front door finds a route for a method and path, and what it answers itself when none
 * fits: 404 for a path no route has, 405 (with `Allow`) for a path whose routes take other methods,
 * and the transport refusals (400, 413, 414, 431, 500). Each answer is in the error shape of the area
 * the path lies under (by the area's static prefix, as the front door's behaviours split them on AWS),
 * and in the neutral `{ error: { code, message } }` outside every area. The request listener and the
 * parser-error handler (functions/server/client-errors.ts) share it, so a request Node's parser refuses
 * is answered like one the router refuses.
 */
import { errorBody, GENERIC_500_MESSAGE, renderErrorBody, STATUS_OF } from '../kernel/domain/error-bodies';
import type { ErrorCode } from '../kernel/domain/errors';
import { areaPathPatterns, underPattern } from '../kernel/http/api-gateway-contract';
import type { HttpHandler } from '../kernel/http/kit';
import type { RouteDef } from '../kernel/route-vocabulary';
import { decodePathValue } from './request-target';

export interface CompiledRoute {
  readonly route: RouteDef;
  readonly pattern: RegExp;
  readonly params: string[];
  readonly handler: HttpHandler;
}

export function compile(route: RouteDef, handler: HttpHandler): CompiledRoute {
  const params: string[] = [];
  const source = route.path
    .split('/')
    .map((seg) => {
      const m = /^\{(\w+)\}$/.exec(seg);
      if (!m) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(m[1]!);
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), params, handler };
}

export type RouteMatch =
  | { readonly kind: 'route'; readonly hit: CompiledRoute; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: 'method'; readonly allow: readonly string[]; readonly area: RouteDef }
  | { readonly kind: 'none'; readonly area: RouteDef | undefined };

export interface RouterAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export class Router {
  private readonly patterns: readonly { readonly pattern: string; readonly route: RouteDef }[];

  constructor(readonly routes: readonly CompiledRoute[]) {
    const byArea = new Map<string, CompiledRoute[]>();
    for (const r of routes) byArea.set(r.route.area, [...(byArea.get(r.route.area) ?? []), r]);
    const patterns = areaPathPatterns(new Map([...byArea].map(([area, members]) => [area, members.map((m) => m.route.path)])));
    this.patterns = [...patterns].flatMap(([area, list]) => list.map((pattern) => ({ pattern, route: byArea.get(area)![0]!.route })));
  }

  /** The route for `method` on `pathname`, or why there is none. Path parameters come back decoded (leniently). */
  match(method: string, pathname: string): RouteMatch {
    const onPath: { readonly hit: CompiledRoute; readonly values: readonly string[] }[] = [];
    for (const r of this.routes) {
      const m = r.pattern.exec(pathname);
      if (m) onPath.push({ hit: r, values: m.slice(1) });
    }
    const found = onPath.find((x) => x.hit.route.method === method);
    if (found) {
      const params: Record<string, string> = Object.create(null);
      found.hit.params.forEach((name, i) => {
        params[name] = decodePathValue(found.values[i]!);
      });
      return { kind: 'route', hit: found.hit, params };
    }
    if (onPath.length) return { kind: 'method', allow: [...new Set(onPath.map((x) => x.hit.route.method))], area: onPath[0]!.hit.route };
    return { kind: 'none', area: this.areaOf(pathname) };
  }

  /** A route of the area whose prefix `pathname` lies under, for answers in that area's shape. */
  areaOf(pathname: string): RouteDef | undefined {
    return this.patterns.find((p) => underPattern(pathname, p.pattern))?.route;
  }

  /**
   * The answer to a request that matched no route, or that the front door refuses before any route
   * runs. `shown` replaces the code a client sees (405's `method_not_allowed`, which is not a domain code).
   */
  answer(area: RouteDef | undefined, code: ErrorCode, message: string, headers: Readonly<Record<string, string>> = {}, shown?: string): RouterAnswer {
    const body = shown !== undefined ? renderErrorBody(area?.area ?? 'export', shown, message) : errorBody(area?.area ?? 'export', code, message);
    return { status: STATUS_OF[code], headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
  }

  /** A request that failed unexpectedly, answered like the kit answers one (a generic 500 in the area's shape). */
  internalError(area: RouteDef | undefined): RouterAnswer {
    return {
      status: 500,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify(errorBody(area?.area ?? 'export', 'unavailable', GENERIC_500_MESSAGE)),
    };
  }

  /** The front door's answer when nothing matched `method` on `pathname`. */
  unmatched(method: string, pathname: string, match: Exclude<RouteMatch, { kind: 'route' }>): RouterAnswer {
    const shown = printable(pathname);
    if (match.kind === 'method')
      return this.answer(
        match.area,
        'not_allowed',
        `Method ${printable(method)} is not allowed on ${shown}`,
        { Allow: match.allow.join(', ') },
        'method_not_allowed',
      );
    // Under an area, the message API Gateway's own answer gives (MISSING_AUTHENTICATION_TOKEN).
    return this.answer(match.area, 'not_found', match.area ? 'No such route' : `No route for ${printable(method)} ${shown}`);
  }
}

/** What of a client's method or path an error message repeats: printable ASCII, at most 200 characters. */
export function printable(text: string): string {
  const cleaned = text.replace(/[^\x20-\x7e]/g, '?');
  return cleaned.length > 200 ? `${cleaned.slice(0, 200)}…` : cleaned;
}
