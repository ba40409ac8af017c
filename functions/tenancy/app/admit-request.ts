/**
 * Tenancy's side of the HTTP kit's admission (functions/kernel/app/admission-ports.ts): identifies the caller by the route's
 * auth kind (a key, the admin token, a signing secret), counts the request against its rate-limit class,
 * then admits it (scopes, the key's app and org).
 */
import type { KeyClass } from '../../kernel/domain/auth-messages';
import { bearerToken, sameSecret } from '../domain/credentials';
import { DomainError } from '../../kernel/domain/errors';
import { grantFromContext, type KeyGrant } from '../domain/key-grant';
import { RATE_LIMITS, type RateLimitClass } from '../../kernel/domain/rate-limits';
import type { Admission, AdmissionRequest, Admitted } from '../../kernel/app/admission-ports';
import type { PlatformPorts } from './tenancy-ports';
import type { AuthKind, RouteDef } from '../../kernel/route-vocabulary';
import { admitChatGrant, type ChatPrincipal } from './authenticate-chat-key';
import { orgPrincipal, requireScope, type OrgPrincipal } from './authenticate-org-key';
import { enforceRateLimit } from '../../kernel/app/enforce-rate-limit';
import { requireUnexpired, resolveApiKey } from './resolve-api-key';

/** What a handler reads of its caller (`req.grant`, `req.principal`, `req.chat`, `req.signingSecret`). */
export interface KeyCaller {
  /** The resolved key, on `orgKey`, `chatKey` and `acpKey` routes. */
  readonly grant?: KeyGrant;
  /** The org key's org and scopes, on `orgKey` routes. */
  readonly principal?: OrgPrincipal;
  /** The chat API key's app and org, on `chatKey` routes. */
  readonly chat?: ChatPrincipal;
  /** The bearer token on `signingSecret` routes (unchecked: matching it is the use case's job). */
  readonly signingSecret?: string;
}

export type AdmissionDeps = Pick<PlatformPorts, 'credentials' | 'orgs' | 'apps' | 'clock' | 'rateCounter'> & {
  /** Locally the admin API checks this token; on AWS it is undefined and API Gateway enforces IAM. */
  readonly adminToken?: string;
};

/** Who is calling, before the request is counted. */
interface Identity {
  readonly grant?: KeyGrant;
  readonly signingSecret?: string;
}

/**
 * The key a gateway authorizer resolved (its context), or, with no authorizer in front (a direct
 * invocation), the same resolution here. Either way a cached grant's expiry is checked again.
 */
async function keyGrant(deps: AdmissionDeps, keyClass: KeyClass, req: AdmissionRequest): Promise<Identity> {
  const fromGateway = grantFromContext(req.authorizer);
  const grant = fromGateway?.keyClass === keyClass ? fromGateway : await resolveApiKey(deps, { keyClass, authorization: req.authorization });
  return { grant: requireUnexpired(deps, grant) };
}

/** How each auth kind identifies the caller; a new kind does not compile until it is listed here. */
const IDENTIFY = {
  orgKey: (deps, req) => keyGrant(deps, 'orgKey', req),
  chatKey: (deps, req) => keyGrant(deps, 'chatKey', req),
  acpKey: (deps, req) => keyGrant(deps, 'acpKey', req),
  signingSecret: async (_deps, req) => {
    const signingSecret = bearerToken(req.authorization);
    return signingSecret !== undefined ? { signingSecret } : {};
  },
  public: async () => ({}),
  iam: async (deps, req) => {
    if (deps.adminToken !== undefined) {
      const token = bearerToken(req.authorization);
      if (!token || !sameSecret(token, deps.adminToken)) throw new DomainError('unauthorized', 'Missing or invalid admin token');
    } else if (!req.userArn) {
      throw new DomainError('unauthorized', 'IAM authentication required');
    }
    return {};
  },
} satisfies Record<AuthKind, (deps: AdmissionDeps, req: AdmissionRequest) => Promise<Identity>>;

/** The window each rate-limit class counts a request in; a new class does not compile until it is listed here. */
const RATE_SUBJECT = {
  orgKey: (identity) => `orgKey:${identity.grant!.keyId}`,
  chatKey: (identity) => `chatKey:${identity.grant!.keyId}`,
  acpKey: (identity) => `acpKey:${identity.grant!.keyId}`,
  acpPublicIp: (_identity, req) => `acpPublicIp:${req.clientIp}`,
  releaseNotesIp: (_identity, req) => `releaseNotesIp:${req.clientIp}`,
  none: () => undefined,
} satisfies Record<RateLimitClass, (identity: Identity, req: AdmissionRequest) => string | undefined>;

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
} satisfies Record<AuthKind, (deps: AdmissionDeps, route: RouteDef, req: AdmissionRequest, identity: Identity, counted: Promise<void>) => Promise<KeyCaller>>;

/** Identifies the caller, starts counting the request, then admits it; the verdict of the count travels with the caller. */
export async function admitRequest(deps: AdmissionDeps, route: RouteDef, req: AdmissionRequest): Promise<Admitted<KeyCaller>> {
  const identity = await IDENTIFY[route.auth](deps, req);
  const subject = RATE_SUBJECT[route.rateLimit](identity, req);
  const limit = route.rateLimit === 'none' ? undefined : RATE_LIMITS[route.rateLimit];
  const counted = subject && limit ? enforceRateLimit(deps, { subject, limit }) : Promise.resolve();
  counted.catch(() => undefined); // awaited by the kit; this only keeps an early failure from going unhandled
  const caller = await ADMIT[route.auth](deps, route, req, identity, counted);
  return { caller, counted };
}

/** The kit's admission port, answered by the keys of `deps`. */
export function keyAdmission(deps: AdmissionDeps): Admission<KeyCaller> {
  return { admit: (route, req) => admitRequest(deps, route, req) };
}
