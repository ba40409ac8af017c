/**
 * Tenancy's ports: orgs, apps, credentials, the API gateway's keys and the org credits, and the deps
 * its use cases pick from (the kernel's ports, platform-ports.ts, included).
 */
import type { App, AppSettings } from '../domain/app';
import type { KeyClass } from '../../kernel/domain/auth-messages';
import type { CredentialKind, ListedCredential, StoredCredential } from '../domain/credentials';
import type { Org, Plan } from '../domain/org';
import type { Micros } from '../../kernel/domain/time';
import type { Clock, IdGenerator, JobQueue, PlatformSettings, RateCounter } from '../../kernel/app/kernel-ports';

export interface OrgStore {
  create(org: Org): Promise<void>;
  get(id: string): Promise<Org | undefined>;
  /** Renames the org or changes its plan; undefined when there is no such org. */
  update(id: string, patch: { readonly name?: string; readonly plan?: Plan }, atUs: Micros): Promise<Org | undefined>;
  /**
   * Up to `limit` orgs in creation order (created_at, then id), after position `after` (the `next` of
   * the page before); `next` is absent on the last page. For jobs that visit every org.
   */
  list(limit: number, after?: string): Promise<{ readonly orgs: Org[]; readonly next?: string }>;
  /**
   * Puts orgs created before the list existed on it, up to `maxPages` pages of the table at a time,
   * resuming where the last call stopped; true once every org is listed (then one read a call).
   */
  completeListing(maxPages: number): Promise<boolean>;
}

export interface CredentialStore {
  /** Stores a new credential; the raw value never reaches this port. */
  create(cred: StoredCredential): Promise<void>;
  findByHash(hash: string): Promise<StoredCredential | undefined>;
  getById(id: string): Promise<StoredCredential | undefined>;
  /** Idempotent: revoking twice keeps the first revocation time. */
  revoke(id: string, atUs: Micros): Promise<StoredCredential | undefined>;
  /** The org's keys in every state, newest first (created_at, then id); `cursor` is the previous page's. */
  listByOrg(orgId: string, filter: CredentialFilter, limit: number, cursor?: string): Promise<CredentialPage>;
  /**
   * Records a use of the key at `atUs` unless one later than `atUs - minIntervalUs` is recorded
   * already (another process's): true when it wrote. An unknown id writes nothing.
   */
  touchLastUsed(id: string, atUs: Micros, minIntervalUs: Micros): Promise<boolean>;
  /**
   * A rotation's first write: names `successorId` the key's pending successor, if the key is neither
   * revoked nor rotated (undefined otherwise). `displaced` is the pending successor of a rotation that
   * never completed, whose secret nobody was shown.
   */
  beginRotation(id: string, successorId: string): Promise<{ readonly displaced?: string } | undefined>;
  /**
   * A rotation's last write: if `successorId` is still the key's pending successor, records it as the
   * key's successor and revokes the key or moves its expiry; undefined when another rotation (or a
   * revocation) came first.
   */
  completeRotation(
    id: string,
    successorId: string,
    end: { readonly revokedAtUs: Micros } | { readonly expiresAtUs: Micros },
  ): Promise<StoredCredential | undefined>;
}

/** Which of an org's keys a list shows: every one, or those of one app, of one kind, or both. */
export interface CredentialFilter {
  readonly appId?: string;
  readonly kind?: CredentialKind;
}

export interface CredentialPage {
  readonly credentials: ListedCredential[];
  /** Present when more keys follow: passed back, it reads the next page. */
  readonly cursor?: string;
}

export interface AppStore {
  /** Creates the app and reserves its unique `appNameId`; picks the number itself. */
  create(app: Omit<App, 'appNameId'>): Promise<App>;
  get(id: string): Promise<App | undefined>;
  getByNameId(appNameId: string): Promise<App | undefined>;
  /** Non-deleted apps of the org, newest first (created_at, then id). */
  listByOrg(orgId: string): Promise<App[]>;
  update(id: string, patch: { name?: string; settings?: AppSettings }, atUs: Micros): Promise<App | undefined>;
  /** Hides the app from every list at once and queues it for the deletion worker. */
  markDeleted(id: string, atUs: Micros): Promise<App | undefined>;
  /** Apps marked deleted whose sessions and consumers are not all removed yet, oldest first. */
  listPendingDeletion(limit: number): Promise<App[]>;
  /** The deletion worker removed everything: the app leaves the pending list. */
  completeDeletion(id: string): Promise<void>;
}

/**
 * The API gateway's side of the platform's keys (functions/kernel/http/api-gateway-contract.ts). On AWS: one API Gateway API key
 * per platform key, in the usage plan of its class, and the key authorizers' caches. Locally: the local
 * server's authorizer cache (there are no usage plans on a laptop).
 */
export interface ApiKeyRegistry {
  /** Creates the usage-plan key of a platform key. Idempotent: registering twice keeps one key. */
  register(key: { readonly id: string; readonly keyClass: KeyClass }): Promise<void>;
  /**
   * Forgets every cached authorization, so a revoked key is refused at once, and removes the key's
   * usage-plan key. Idempotent: a key with no usage-plan key is fine.
   */
  unregister(key: { readonly id: string }): Promise<void>;
  /**
   * Forgets every cached authorization and keeps the usage-plan keys: a key whose expiry moved
   * earlier (a rotation's grace period) is refused from its new expiry on, not from its cached one.
   */
  forgetAuthorizations(): Promise<void>;
}

/** The ports every function of the platform has: tenancy, credentials, limits, time and ids. */
export interface PlatformPorts {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly orgs: OrgStore;
  readonly credentials: CredentialStore;
  readonly apps: AppStore;
  readonly rateCounter: RateCounter;
  readonly settings: PlatformSettings;
}

/** Ports of the lifecycle and admin functions: the jobs queue and the gateway's keys. */
export interface AdminPorts {
  readonly jobs: JobQueue;
  readonly apiKeys: ApiKeyRegistry;
}

/** Prepaid credits per org and month-to-date spend per app, in pico-dollars (1e-12 USD). */
export interface BillingStore {
  /** Remaining credits of the org; undefined when the org has no credit account (unlimited). */
  credits(orgId: string): Promise<bigint | undefined>;
  addCredits(orgId: string, pico: bigint): Promise<bigint>;
  /** Records a charge: the org's credits go down, the app's month-to-date spend goes up. */
  charge(orgId: string, appId: string, month: string, pico: bigint): Promise<void>;
}

/** What a chat turn's billing check needs, read with the key's org and app. */
export interface ChatBillingState {
  /** The billing month (`YYYY-MM`, UTC) the spend is of. */
  readonly month: string;
  /** The org's remaining credits; undefined when it has no credit account (unlimited). */
  readonly creditsPico: bigint | undefined;
  readonly monthSpendPico: bigint;
}

/**
 * Everything admitting a chat key reads, in one round trip: the key's org (with its credits), its app,
 * and the app's month-to-date spend. Strongly consistent, like the single reads it replaces.
 */
export interface ChatAdmissionReader {
  read(input: { orgId: string; appId: string; month: string }): Promise<{ org?: Org; app?: App; billing: ChatBillingState }>;
}

/** The org's credits, for the admin API that adds them and the chat turns that spend them. */
export interface BillingPorts {
  readonly billing: BillingStore;
}

/** Everything a use case of the platform's own (tenancy, keys, limits) may pick its deps from. */
export type PlatformDeps = PlatformPorts & AdminPorts & BillingPorts;
