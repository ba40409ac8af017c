/**
 * Who may run a route, and how often: the kit identifies the caller by the route's auth kind, counts
 * the request against its rate-limit class, admits it (scopes, the key's app and org, path ids), then
 * runs the route's logic.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import { admitChatGrant } from '../app/authenticate-chat-key';
import { orgPrincipal, requireScope } from '../app/authenticate-org-key';
import { enforceRateLimit } from '../app/enforce-rate-limit';
import { requireUnexpired, resolveApiKey } from '../app/resolve-api-key';
import type { KeyClass } from '../domain/auth-messages';
import { bearerToken } from '../domain/credentials';
import { DomainError } from '../domain/errors';
import { grantFromContext, type KeyGrant } from '../domain/key-grant';
import { RATE_LIMITS, type RateLimitClass } from '../domain/rate-limits';
import type { AuthKind, RouteDef } from '../../routes';
import { isUuid } from '../domain/ids';
import type { HttpResult, KitDeps } from './kit';
import type { HttpRequest } from './kit-request';
import { pathIdNotFound } from './request-declaration';

function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** Who is calling, before the request is counted. */
interface Identity {
  readonly grant?: KeyGrant;
  readonly signingSecret?: string;
}

/**
 * The key a gateway authorizer resolved (its context), or, with no authorizer in front (a direct
 * invocation), the same resolution here. Either way a cached grant's expiry is checked again.
 */
async function keyGrant(deps: KitDeps, keyClass: KeyClass, req: HttpRequest): Promise<Identity> {
  const fromGateway = grantFromContext(req.event.requestContext?.authorizer);
  const grant = fromGateway?.keyClass === keyClass ? fromGateway : await resolveApiKey(deps, { keyClass, authorization: req.header('authorization') });
  return { grant: requireUnexpired(deps, grant) };
}

/** How each auth kind identifies the caller; a new kind does not compile until it is listed here. */
const IDENTIFY = {
  orgKey: (deps, req) => keyGrant(deps, 'orgKey', req),
  chatKey: (deps, req) => keyGrant(deps, 'chatKey', req),
  acpKey: (deps, req) => keyGrant(deps, 'acpKey', req),
  signingSecret: async (_deps, req) => {
    const signingSecret = bearerToken(req.header('authorization'));
    return signingSecret !== undefined ? { signingSecret } : {};
  },
  public: async () => ({}),
  iam: async (deps, req) => {
    if (deps.adminToken !== undefined) {
      const token = bearerToken(req.header('authorization'));
      if (!token || !sameSecret(token, deps.adminToken)) throw new DomainError('unauthorized', 'Missing or invalid admin token');
    } else if (!req.event.requestContext?.identity?.userArn) {
      throw new DomainError('unauthorized', 'IAM authentication required');
    }
    return {};
  },
} satisfies Record<AuthKind, (deps: KitDeps, req: HttpRequest) => Promise<Identity>>;

/** The window each rate-limit class counts a request in; a new class does not compile until it is listed here. */
const RATE_SUBJECT = {
  orgKey: (identity) => `orgKey:${identity.grant!.keyId}`,
  chatKey: (identity) => `chatKey:${identity.grant!.keyId}`,
  acpKey: (identity) => `acpKey:${identity.grant!.keyId}`,
  acpPublicIp: (_identity, req) => `acpPublicIp:${req.clientIp}`,
  releaseNotesIp: (_identity, req) => `releaseNotesIp:${req.clientIp}`,
  none: () => undefined,
} satisfies Record<RateLimitClass, (identity: Identity, req: HttpRequest) => string | undefined>;

type Admission = Pick<HttpRequest, 'grant' | 'principal' | 'chat' | 'signingSecret'>;

/**
 * What each auth kind checks once the request is being counted: scopes, the key's app and org, the
 * app in the path. `counted` settles with the rate-limit verdict; a check that fails waits for it, so a
 * request over its limit is a 429 whatever else is wrong with it (as when the checks ran after it).
 */
const ADMIT = {
  orgKey: async (_deps, route, _req, identity, counted) => {
    const principal = orgPrincipal(identity.grant!);
    if (route.scope && !principal.scopes.includes(route.scope)) {
      await counted;
      requireScope(principal, route.scope);
    }
    return { grant: identity.grant!, principal };
  },
  chatKey: async (deps, _route, _req, identity) => ({ grant: identity.grant!, chat: await admitChatGrant(deps, identity.grant!) }),
  acpKey: async (_deps, _route, req, identity, counted) => {
    if (req.path.appId !== undefined && req.path.appId !== identity.grant!.appId) {
      await counted;
      throw new DomainError('forbidden', 'This API key belongs to another app');
    }
    return { grant: identity.grant! };
  },
  signingSecret: async (_deps, _route, _req, identity) => (identity.signingSecret !== undefined ? { signingSecret: identity.signingSecret } : {}),
  public: async () => ({}),
  iam: async () => ({}),
} satisfies Record<AuthKind, (deps: KitDeps, route: RouteDef, req: HttpRequest, identity: Identity, counted: Promise<void>) => Promise<Admission>>;

const KEY_LIMITS: readonly RateLimitClass[] = ['orgKey', 'chatKey', 'acpKey'];

/** A key-class limit counts per key, so only a route authenticated by that key class can have it. */
export function checkRouteShape(route: RouteDef): void {
  if (KEY_LIMITS.includes(route.rateLimit) && route.rateLimit !== route.auth) {
    throw new Error(`route ${route.id}: rate limit ${route.rateLimit} needs auth ${route.rateLimit}, not ${route.auth}`);
  }
}

/**
 * Authenticates, counts and admits a request, then runs the route. A GET only reads, so it runs
 * concurrently with its rate-limit write (and its result is dropped when the counter says 429); any
 * other method waits for the verdict before it writes anything.
 */
export async function admitAndRun(deps: KitDeps, route: RouteDef, req0: HttpRequest, fn: (req: HttpRequest) => Promise<HttpResult>): Promise<HttpResult> {
  const identity = await IDENTIFY[route.auth](deps, req0);
  const subject = RATE_SUBJECT[route.rateLimit](identity, req0);
  const limit = route.rateLimit === 'none' ? undefined : RATE_LIMITS[route.rateLimit];
  const counted = subject && limit ? enforceRateLimit(deps, { subject, limit }) : Promise.resolve();
  counted.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
  const admission = await ADMIT[route.auth](deps, route, req0, identity, counted);
  checkPathIds(route, req0.path);
  const req: HttpRequest = { ...req0, ...admission };
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
 * Resource ids in the path of the export, release-notes and admin APIs are UUIDs: anything else names no resource
 * (404), and never reaches DynamoDB as an oversized key.
 */
function checkPathIds(route: RouteDef, path: Readonly<Record<string, string>>): void {
  if (route.area !== 'export' && route.area !== 'admin' && route.area !== 'releaseNotes') return;
  for (const [name, value] of Object.entries(path)) {
    if (name.endsWith('Id') && !isUuid(value)) throw new DomainError('not_found', pathIdNotFound(name));
  }
}
