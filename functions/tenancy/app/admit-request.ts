/**
 * Tenancy's side of the HTTP kit's admission (functions/kernel/app/admission-ports.ts): identifies the caller by the route's
 * auth kind (a key, the admin token, a signing secret), counts the request against its rate-limit class,
 * then admits it (scopes, the key's app and org). The key resolution below is also the key authorizers'
 * (functions/tenancy/authorizers), and the rate-limit count the kernel's counter port (RateCounter) answers.
 */
import { type KeyClass, EXPIRED_KEY_MESSAGE, INVALID_KEY_MESSAGE, MISSING_KEY_MESSAGE, PAID_PLAN_MESSAGE } from '../../kernel/domain/auth-messages';
import { bearerToken, sameSecret, credentialState, hashCredential, CREDENTIAL_PREFIX } from '../domain/credentials';
import { DomainError, RateLimitedError } from '../../kernel/domain/errors';
import { grantFromContext, type KeyGrant, CREDENTIAL_KIND_OF, grantExpired, grantOf } from '../domain/key-grant';
import { RATE_LIMITS, type RateLimitClass, retryAfterSeconds, type RateLimit } from '../../kernel/domain/rate-limits';
import type { Admission, AdmissionRequest, Admitted } from '../../kernel/app/admission-ports';
import type { ChatAdmissionReader, ChatBillingState, PlatformPorts, PlatformDeps } from './tenancy-ports';
import { billingMonth } from '../domain/pricing';
import type { AuthKind, RouteDef } from '../../kernel/route-vocabulary';
import { orgPrincipal, requireScope, type OrgPrincipal } from './authenticate-org-key';
import type { App } from '../domain/app';
import type { Org } from '../domain/org';
import { microsToMs } from '../../kernel/domain/time';
import type { Clock, RateCounter, Telemetry } from '../../kernel/app/kernel-ports';
import type { AuditScope } from '../../kernel/app/audit-trail-ports';
import type { ConsoleAdmission, ConsoleCaller, SignedInIdentity } from './admit-console-member';
import { LastUseRecorder } from './record-last-use';

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
  /** The signed-in member on `consoleSession` routes. */
  readonly console?: ConsoleCaller;
}

export type AdmissionDeps = Pick<PlatformPorts, 'credentials' | 'orgs' | 'apps' | 'clock' | 'rateCounter'> &
  Pick<Telemetry, 'logger'> & {
    /** The key's org, app and billing state of a chat key, in one read. */
    readonly chatAdmission: ChatAdmissionReader;
    /** Locally the admin API checks this token; on AWS it is undefined and API Gateway enforces IAM. */
    readonly adminToken?: string;
    /** The console's sessions and memberships, in the functions that serve console routes. */
    readonly consoleAdmission?: ConsoleAdmission;
  };

/** Who is calling, before the request is counted. */
interface Identity {
  readonly grant?: KeyGrant;
  readonly signingSecret?: string;
  readonly person?: SignedInIdentity;
  /** The operator's identity on `iam` routes: the IAM principal, or the local admin token. */
  readonly operator?: string;
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
      return { operator: 'admin-token' };
    }
    if (!req.userArn) throw new DomainError('unauthorized', 'IAM authentication required');
    return { operator: req.userArn };
  },
  consoleSession: async (deps, req, route) => {
    if (!deps.consoleAdmission) throw new DomainError('unavailable', 'Console sign-in is not configured');
    return { person: await deps.consoleAdmission.identify(route, req) };
  },
} satisfies Record<AuthKind, (deps: AdmissionDeps, req: AdmissionRequest, route: RouteDef) => Promise<Identity>>;

/** The window each rate-limit class counts a request in; a new class does not compile until it is listed here. */
const RATE_SUBJECT = {
  orgKey: (identity) => `orgKey:${identity.grant!.keyId}`,
  chatKey: (identity) => `chatKey:${identity.grant!.keyId}`,
  acpKey: (identity) => `acpKey:${identity.grant!.keyId}`,
  acpPublicIp: (_identity, req) => `acpPublicIp:${req.clientIp}`,
  releaseNotesIp: (_identity, req) => `releaseNotesIp:${req.clientIp}`,
  consoleIp: (_identity, req) => `consoleIp:${req.clientIp}`,
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
  iam: async (_deps, _route, _req, identity) => ({ audited: true, caller: {}, audit: { actor: { kind: 'operator', id: identity.operator ?? 'admin' } } }),
  consoleSession: async (deps, route, req, identity, counted) => {
    const { caller, audit } = await deps.consoleAdmission!.admit(route, req, identity.person!, counted);
    return { audited: true, caller: { console: caller }, audit };
  },
} satisfies Record<
  AuthKind,
  (deps: AdmissionDeps, route: RouteDef, req: AdmissionRequest, identity: Identity, counted: Promise<void>) => Promise<KeyCaller | AuditedCaller>
>;

const isAudited = (admitted: KeyCaller | AuditedCaller): admitted is AuditedCaller => (admitted as Partial<AuditedCaller>).audited === true;

/** A console or admin caller, with who the audit log names for its changes. */
interface AuditedCaller {
  readonly audited: true;
  readonly caller: KeyCaller;
  readonly audit: AuditScope;
}

/**
 * Identifies the caller, starts counting the request and recording its key's last use, then admits
 * it; the verdict of the count travels with the caller. The last use never delays an answer: a GET's
 * `counted` waits for it too (the kit awaits that after the handler, which runs meanwhile); any other
 * method waits for its count before its handler, so there the write is left to finish on its own.
 */
export async function admitRequest(deps: AdmissionDeps, route: RouteDef, req: AdmissionRequest, lastUse?: LastUseRecorder): Promise<Admitted<KeyCaller>> {
  const identity: Identity = await IDENTIFY[route.auth](deps, req, route);
  const subject = RATE_SUBJECT[route.rateLimit](identity, req);
  const limit = route.rateLimit === 'none' ? undefined : RATE_LIMITS[route.rateLimit];
  const count = subject && limit ? enforceRateLimit(deps, { subject, limit }) : Promise.resolve();
  const touched = identity.grant && lastUse ? lastUse.touchLastUsed(identity.grant.keyId) : undefined;
  const counted = touched && route.method === 'GET' ? Promise.all([count, touched]).then(() => undefined) : count;
  counted.catch(() => undefined); // awaited by the kit; this only keeps an early failure from going unhandled
  const admitted = await ADMIT[route.auth](deps, route, req, identity, counted);
  if (isAudited(admitted)) return { caller: admitted.caller, counted, audit: admitted.audit };
  return { caller: admitted, counted };
}

/** The kit's admission port, answered by the keys of `deps`; one per process, which remembers the keys it touched. */
export function keyAdmission(deps: AdmissionDeps): Admission<KeyCaller> {
  const lastUse = new LastUseRecorder(deps);
  return { admit: (route, req) => admitRequest(deps, route, req, lastUse) };
}

/**
 * Resolves the bearer key of a request to an API whose keys are of `keyClass`: the work of the key
 * authorizers (functions/tenancy/authorizers), and of a function reached with no authorizer in front of it.
 * Missing, malformed, of another class, unknown or revoked: 401 `unauthorized`; expired: 401 `expired`.
 * Nothing about the key's app or org is checked here: a grant is cached by the gateway, and those
 * change without touching the key, so the functions check them on every request.
 */
export async function resolveApiKey(
  deps: Pick<PlatformDeps, 'credentials' | 'clock'>,
  input: { keyClass: KeyClass; authorization: string | undefined },
): Promise<KeyGrant> {
  const kind = CREDENTIAL_KIND_OF[input.keyClass];
  const token = bearerToken(input.authorization);
  if (!token) throw new DomainError('unauthorized', MISSING_KEY_MESSAGE[input.keyClass]);
  if (!token.startsWith(CREDENTIAL_PREFIX[kind])) throw new DomainError('unauthorized', INVALID_KEY_MESSAGE);
  const cred = await deps.credentials.findByHash(hashCredential(token));
  if (!cred || cred.kind !== kind || (kind !== 'org' && !cred.appId)) throw new DomainError('unauthorized', INVALID_KEY_MESSAGE);
  const state = credentialState(cred, deps.clock.nowUs());
  if (state === 'revoked') throw new DomainError('unauthorized', INVALID_KEY_MESSAGE);
  if (state === 'expired') throw new DomainError('expired', EXPIRED_KEY_MESSAGE);
  return grantOf(input.keyClass, cred);
}

/** A grant from the gateway's cache may have outlived its key's expiry: 401 `expired` then. */
export function requireUnexpired(deps: Pick<PlatformDeps, 'clock'>, grant: KeyGrant): KeyGrant {
  if (grantExpired(grant, deps.clock.nowUs())) throw new DomainError('expired', EXPIRED_KEY_MESSAGE);
  return grant;
}

export interface ChatPrincipal {
  readonly keyId: string;
  readonly org: Org;
  readonly app: App;
  /**
   * The org's credits and the app's spend this month, read with them: a turn is refused on these before
   * the model runs. Turns of other sessions (or one waiting on this session's lease) charge meanwhile, so
   * a concurrent turn can draw credits below zero by its own cost, never further.
   */
  readonly billing: ChatBillingState;
}

/**
 * The app and org of a valid chat key (resolved by the key authorizer), with the billing state of its
 * turns, in one read. Read on every request, because a cached grant outlives neither of them: a key of a
 * deleted app and an org on the free plan are 401 (the spec's area B).
 */
export async function admitChatGrant(deps: Pick<AdmissionDeps, 'chatAdmission' | 'clock'>, grant: KeyGrant): Promise<ChatPrincipal> {
  const { org, app, billing } = grant.appId
    ? await deps.chatAdmission.read({ orgId: grant.orgId, appId: grant.appId, month: billingMonth(deps.clock.nowUs()) })
    : { org: undefined, app: undefined, billing: undefined };
  if (!org || !app || !billing || app.deletedAtUs !== undefined || app.orgId !== org.id) throw new DomainError('unauthorized', INVALID_KEY_MESSAGE);
  if (org.plan !== 'paid') throw new DomainError('plan_required', PAID_PLAN_MESSAGE);
  return { keyId: grant.keyId, org, app, billing };
}

/** Resolves a chat API key (`svc_chat_…`) to its app and org in one step (callers with no gateway in front). */
export async function authenticateChatKey(
  deps: Pick<PlatformDeps, 'credentials' | 'clock'> & Pick<AdmissionDeps, 'chatAdmission'>,
  input: { authorization: string | undefined },
): Promise<ChatPrincipal> {
  return admitChatGrant(deps, await resolveApiKey(deps, { keyClass: 'chatKey', authorization: input.authorization }));
}

/**
 * Counts one request of `subject` in its fixed window and rejects it once the window's limit is
 * passed, with the seconds until the window ends. The 121st request of a 120/min window is refused.
 */
export async function enforceRateLimit(
  deps: { readonly rateCounter: RateCounter; readonly clock: Clock },
  input: { subject: string; limit: RateLimit },
): Promise<void> {
  const nowMs = microsToMs(deps.clock.nowUs());
  const window = await deps.rateCounter.hit(input.subject, input.limit.windowMs, nowMs);
  if (window.count > input.limit.limit) {
    throw new RateLimitedError(retryAfterSeconds(window.windowStartMs, input.limit.windowMs, nowMs));
  }
}
