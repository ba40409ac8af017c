/**
 * Who may run a route, and how often: the kit hands the request to its admission (a port, built by
 * tenancy's core wiring), which identifies the caller by the route's auth kind, counts the request
 * against its rate-limit class and admits it; then the kit checks the path ids and runs the route's logic.
 */
import { DomainError } from '../domain/errors';
import type { RateLimitClass } from '../domain/rate-limits';
import type { AdmissionRequest } from '../app/admission-ports';
import type { RouteDef } from '../route-vocabulary';
import type { HttpResult, KitDeps } from './kit';
import type { HttpRequest } from './kit-request';

const KEY_LIMITS: readonly RateLimitClass[] = ['orgKey', 'chatKey', 'acpKey'];

/** A key-class limit counts per key, so only a route authenticated by that key class can have it. */
export function checkRouteShape(route: RouteDef): void {
  if (KEY_LIMITS.includes(route.rateLimit) && route.rateLimit !== route.auth) {
    throw new Error(`route ${route.id}: rate limit ${route.rateLimit} needs auth ${route.rateLimit}, not ${route.auth}`);
  }
}

function admissionRequestOf(req: HttpRequest): AdmissionRequest {
  return {
    authorization: req.header('authorization'),
    authorizer: req.event.requestContext?.authorizer,
    userArn: req.event.requestContext?.identity?.userArn,
    clientIp: req.clientIp,
    path: req.path,
  };
}

/**
 * Authenticates, counts and admits a request, then runs the route. A GET only reads, so it runs
 * concurrently with its rate-limit write (and its result is dropped when the counter says 429); any
 * other method waits for the verdict before it writes anything.
 */
export async function admitAndRun<Caller extends object>(
  deps: KitDeps<Caller>,
  route: RouteDef,
  req0: HttpRequest,
  fn: (req: HttpRequest<Caller>) => Promise<HttpResult>,
): Promise<HttpResult> {
  const { caller, counted } = await deps.admission.admit(route, admissionRequestOf(req0));
  checkPathIds(route, req0.path);
  const req: HttpRequest<Caller> = { ...req0, ...caller };
  if (route.method !== 'GET') {
    await counted;
    return fn(req);
  }
  const running = fn(req);
  running.catch(() => undefined);
  await counted;
  return running;
}

/**
 * A path id of the shape its route declares (RouteDef.pathParams), or 404 `<Name> not found`: anything
 * else names no resource, and never reaches DynamoDB as an oversized key.
 */
function checkPathIds(route: RouteDef, path: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(path)) {
    const param = route.pathParams?.[name];
    if (param && param.read(value) === undefined) {
      const resource = name.replace(/Id$/, '');
      throw new DomainError('not_found', `${resource.charAt(0).toUpperCase()}${resource.slice(1)} not found`);
    }
  }
}
