/**
 * The interfaces use cases need. Each has exactly one production adapter in functions/adapters; the
 * embedded backends speak the same wire protocols, so tests and the local process use those adapters too.
 */
import type { App, AppSettings, McpConnection } from './domain/app';
import type { Consumer } from './domain/consumer';
import type { KeysetPosition } from './domain/cursor';
import type { ModelRequest, ModelResponse, ModelSelection, ModelStreamEvent, ModelToolSpec } from './domain/model';
import type { StoredCredential } from './domain/credentials';
import type { Org } from './domain/org';
import type { ReleasePeriod } from './domain/release-notes';
import type { Message, Session } from './domain/session';
import type { Micros } from './domain/time';
import type { Tombstone } from './domain/tombstone';
import type { UsageRow } from './domain/usage';
import type { AttemptOutcome, AttemptResult, DeliveryErrorClass } from './domain/webhook-delivery';
import type { WebhookSubscription } from './domain/webhook-subscription';

export interface Clock {
  /** Microseconds since the epoch, never going backwards within a process. */
  nowUs(): Micros;
}

export interface IdGenerator {
  uuid(): string;
  /** `length` characters from a CSPRNG over [A-Za-z0-9]. */
  secret(length: number): string;
}

export interface OrgStore {
  create(org: Org): Promise<void>;
  get(id: string): Promise<Org | undefined>;
}

export interface CredentialStore {
  /** Stores a new credential; the raw value never reaches this port. */
  create(cred: StoredCredential): Promise<void>;
  findByHash(hash: string): Promise<StoredCredential | undefined>;
  getById(id: string): Promise<StoredCredential | undefined>;
  /** Idempotent: revoking twice keeps the first revocation time. */
  revoke(id: string, atUs: Micros): Promise<StoredCredential | undefined>;
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

/** Metadata a touch may change in the same write. */
export interface SessionChanges {
  readonly title?: string;
}

export interface SessionStore {
  create(session: Session): Promise<void>;
  get(id: string): Promise<Session | undefined>;
  /**
   * The session even while a removal is under way (hidden from `get` and the lists, not yet deleted), so
   * an interrupted removal can be found and re-run.
   */
  getForRemoval(id: string): Promise<Session | undefined>;
  /**
   * Advances the touch clock to `atUs` (never backwards) and applies `lastMessageAtUs` when given.
   * Returns false when the session does not exist.
   */
  touch(id: string, atUs: Micros, lastMessageAtUs?: Micros, changes?: SessionChanges): Promise<boolean>;
  /** Writes a message, or overwrites the message with the same id and creation time (an edit). */
  putMessage(message: Message): Promise<void>;
  removeMessage(sessionId: string, message: Pick<Message, 'id' | 'createdAtUs'>): Promise<void>;
  listMessages(sessionId: string): Promise<Message[]>;
  /**
   * Hides the session from every export list and `get`, then removes its messages and the session item.
   * Idempotent, and a crash at any point leaves it findable by `listForRemovalByApp`/`listByConsumer`.
   */
  remove(id: string, atUs: Micros): Promise<void>;
  /** Up to `limit` sessions of the app, half-removed ones first; removed sessions drop out. */
  listForRemovalByApp(appId: string, limit: number): Promise<Session[]>;
  /** Every session of the consumer, including half-removed ones. */
  listByConsumer(consumerId: string): Promise<Session[]>;
  /** Sessions that never had a message and whose last activity is before `beforeUs`, oldest first. */
  listEmptyInactiveBefore(beforeUs: Micros, limit: number): Promise<Session[]>;
}

export interface ConsumerStore {
  create(consumer: Consumer): Promise<void>;
  get(id: string): Promise<Consumer | undefined>;
  findByEmail(appId: string, email: string): Promise<Consumer | undefined>;
  /** Records message activity for the retention job (never backwards). */
  markActive(id: string, atUs: Micros): Promise<void>;
  remove(id: string): Promise<void>;
  /** Up to `limit` consumers of the app; removed consumers drop out. */
  listByApp(appId: string, limit: number): Promise<Consumer[]>;
  /** Anonymous consumers whose recorded activity is older than `beforeUs`, oldest first. */
  listAnonymousInactiveBefore(beforeUs: Micros, limit: number): Promise<Consumer[]>;
}

export interface UsageStore {
  /** Allocates the next integer id (monotonic, never reused). */
  nextId(): Promise<number>;
  put(row: UsageRow): Promise<void>;
  /** Moves a row whose write committed late to a fresh `created_at` (same rule as tombstones). */
  restamp(row: UsageRow, createdAtUs: Micros): Promise<UsageRow>;
}

/**
 * One page of an export list in (sort value, id) descending order: rows at or above `lowerUs`, at or
 * below the visibility cutoff `upperUs`, and strictly below `after` when continuing a pass.
 */
export interface KeysetWindow {
  readonly lowerUs?: Micros;
  readonly upperUs: Micros;
  readonly after?: KeysetPosition;
  readonly limit: number;
}

export interface KeysetPage<T> {
  readonly rows: T[];
  readonly hasMore: boolean;
  /** Where the next page continues: the last row returned, or the last row examined by a post-filter. */
  readonly last?: KeysetPosition;
}

/** The org export's reads: one index query per page, whatever the org's size. */
export interface ExportReader {
  sessions(
    orgId: string,
    window: KeysetWindow,
    filter: { readonly appId?: string; readonly startedFromUs?: Micros; readonly startedBeforeUs?: Micros },
  ): Promise<KeysetPage<Session>>;
  usage(orgId: string, window: KeysetWindow): Promise<KeysetPage<UsageRow>>;
  tombstones(orgId: string, window: KeysetWindow, filter: { readonly cause?: string }): Promise<KeysetPage<Tombstone>>;
}

/** Platform-wide secret material, created once and kept in the table (encrypted at rest). */
export interface KeyMaterial {
  /** The HMAC key of export cursors. */
  cursorKey(): Promise<Uint8Array>;
}

export interface TombstoneStore {
  /**
   * Writes the tombstone of one resource once: a retry of the same deletion keeps the first tombstone
   * and returns it, so deletion sequences can be re-run after a crash. A new tombstone is pending
   * until `markRemoved`; the deletion sweep finishes removals a crash left pending.
   */
  putOnce(tombstone: Tombstone): Promise<Tombstone>;
  /** The tombstone of one resource, if it was ever deleted. */
  find(resourceType: Tombstone['resourceType'], resourceId: string): Promise<Tombstone | undefined>;
  /**
   * Moves a tombstone to a fresh `deleted_at` (and id): used when its write committed later than half
   * the visibility delay after its stamp, so no reader can have passed its position before it existed.
   */
  restamp(tombstone: Tombstone, deletedAtUs: Micros, id: string): Promise<Tombstone>;
  /** The removal the tombstone announces is complete: it leaves the pending list. */
  markRemoved(tombstone: Pick<Tombstone, 'resourceType' | 'resourceId'>): Promise<void>;
  /** Tombstones whose removal has not completed, written before `beforeUs`, oldest first. */
  listPendingRemoval(beforeUs: Micros, limit: number): Promise<Tombstone[]>;
}

export interface RateLimitWindow {
  readonly count: number;
  readonly windowStartMs: number;
}

export interface RateCounter {
  /** Counts one request of `subject` in the fixed window that holds `nowMs`. */
  hit(subject: string, windowMs: number, nowMs: number): Promise<RateLimitWindow>;
}

/** Messages of the jobs queue: the asynchronous halves of lifecycle operations. */
export type JobMessage = { readonly type: 'app-deletion'; readonly appId: string };

export interface JobQueue {
  send(job: JobMessage, delaySeconds?: number): Promise<void>;
}

/** One model provider behind the platform (DESIGN.md §1: Bedrock on AWS, offline locally, or any OpenAI-compatible server). */
export interface ChatModel {
  converse(request: ModelRequest): Promise<ModelResponse>;
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

export interface ModelCatalog {
  /** The adapter for an app's model selection; undefined when the provider is not configured here. */
  modelFor(selection: ModelSelection): ChatModel | undefined;
}

/** A tool offered to the model, with the connection that serves it. */
export interface ConnectedTool {
  readonly connection: string;
  readonly spec: ModelToolSpec;
}

export interface ToolCallResult {
  readonly content: string;
  readonly isError: boolean;
}

/**
 * External tools over MCP (Streamable HTTP). Header templates of a connection are rendered with the
 * session's variables (`{{session.<name>}}`) on every call; rendered values never leave this port.
 */
export interface ToolGateway {
  listTools(connections: readonly McpConnection[], variables: Readonly<Record<string, string>>): Promise<ConnectedTool[]>;
  callTool(
    connection: McpConnection,
    variables: Readonly<Record<string, string>>,
    call: { readonly name: string; readonly input: Record<string, unknown> },
  ): Promise<ToolCallResult>;
}

/** Session-scoped variables: stored with the session and removed with it, never returned or logged. */
export interface SessionVariableStore {
  get(sessionId: string): Promise<Record<string, string>>;
  /** Merges `variables` over the stored ones. */
  merge(sessionId: string, variables: Readonly<Record<string, string>>): Promise<Record<string, string>>;
}

/** Prepaid credits per org and month-to-date spend per app, in pico-dollars (1e-12 USD). */
export interface BillingStore {
  /** Remaining credits of the org; undefined when the org has no credit account (unlimited). */
  credits(orgId: string): Promise<bigint | undefined>;
  addCredits(orgId: string, pico: bigint): Promise<bigint>;
  monthSpend(appId: string, month: string): Promise<bigint>;
  /** Records a charge: the org's credits go down, the app's month-to-date spend goes up. */
  charge(orgId: string, appId: string, month: string, pico: bigint): Promise<void>;
}

/** Release-note periods (area D). */
export interface ReleaseNoteStore {
  /** Writes the period (the same id replaces it); the feed lists it as soon as this resolves. */
  put(period: ReleasePeriod): Promise<void>;
  get(id: string): Promise<ReleasePeriod | undefined>;
  /** Every period, newest first (periodStart, periodEnd, id), read with strong consistency. */
  listNewestFirst(): Promise<ReleasePeriod[]>;
}

export interface SubscriptionPage {
  readonly subscriptions: WebhookSubscription[];
  /** Where the next page starts; absent at the end of the pass. */
  readonly cursor?: string;
}

/** Webhook subscriptions: by id (deliveries), by secret hash (list, delete), and paged (fan-out). */
export interface SubscriptionStore {
  create(subscription: WebhookSubscription): Promise<void>;
  get(id: string): Promise<WebhookSubscription | undefined>;
  findBySecretHash(hash: string): Promise<WebhookSubscription | undefined>;
  remove(subscription: WebhookSubscription): Promise<void>;
  /** Active subscriptions in creation order, up to `limit` per page; `cursor` continues a pass. */
  pageActive(limit: number, cursor?: string): Promise<SubscriptionPage>;
}

/** One attempt of one delivery: the idempotency key of the webhook worker. */
export interface DeliveryKey {
  readonly subscriptionId: string;
  readonly periodId: string;
  readonly revision: string;
  readonly attempt: number;
}

/** A finished attempt, as the delivery log keeps it (no body, no secret, no address). */
export interface DeliveryAttemptRecord extends DeliveryKey {
  readonly periodStartUs: Micros;
  readonly periodEndUs: Micros;
  readonly attemptedAtUs: Micros;
  readonly latencyMs: number;
  readonly outcome: AttemptOutcome;
  readonly httpStatus?: number;
  readonly error?: DeliveryErrorClass;
}

/** `done`: the attempt already ran to the end; `busy`: another worker holds a fresh claim on it. */
export type ClaimResult = 'claimed' | 'done' | 'busy';

/** The per-subscription delivery log, which is also what makes the worker idempotent per attempt. */
export interface DeliveryLog {
  /** Claims an attempt; a claim made before `staleBeforeUs` belongs to a worker that died and is taken over. */
  claim(key: DeliveryKey, nowUs: Micros, staleBeforeUs: Micros): Promise<ClaimResult>;
  complete(record: DeliveryAttemptRecord): Promise<void>;
  /** Finished attempts of the subscription, newest first. */
  list(subscriptionId: string, limit: number): Promise<DeliveryAttemptRecord[]>;
  removeAll(subscriptionId: string): Promise<void>;
}

/** Binds a sealed secret to its subscription: opening it under another id fails. */
export interface SealContext {
  readonly subscriptionId: string;
}

/** Encrypts webhook signing secrets at rest (DESIGN.md §4): KMS on AWS, a key file in the data directory locally. */
export interface SecretSealer {
  seal(plaintext: string, context: SealContext): Promise<string>;
  open(sealed: string, context: SealContext): Promise<string>;
}

export type Resolution =
  | { readonly addresses: readonly string[] }
  /** `not_found`: the name has no A/AAAA record; `temporary`: the resolver failed or timed out. */
  | { readonly failure: 'not_found' | 'temporary' };

/** Every A and AAAA answer for a host name (the SSRF check classifies all of them). */
export interface HostResolver {
  resolve(hostname: string): Promise<Resolution>;
}

export interface WebhookRequest {
  readonly url: string;
  readonly hostname: string;
  /** The addresses the SSRF check accepted; the connection may go to these and nowhere else. */
  readonly addresses: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  readonly timeoutMs: number;
}

/** POSTs one webhook: pinned to the checked addresses, no redirects followed. Peer failures are results, not throws. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<AttemptResult>;
}

/** Messages of the webhooks queue. */
export type WebhookMessage =
  | { readonly type: 'fan-out'; readonly periodId: string; readonly revision: string; readonly cursor?: string }
  | { readonly type: 'deliver'; readonly subscriptionId: string; readonly periodId: string; readonly revision: string; readonly attempt: number };

export interface WebhookQueue {
  /** Sends every message (batched by the adapter), each with the same delay. */
  send(messages: readonly WebhookMessage[], delaySeconds?: number): Promise<void>;
}

/**
 * Exceptions to the SSRF policy. Only test wiring sets them (a loopback receiver with a test CA);
 * the Lambda wiring and `npm start` never do, and no environment variable reaches them.
 */
export interface WebhookNetworkPolicy {
  /** Exact addresses a callback may resolve to although they are not public unicast. */
  readonly allowAddresses: readonly string[];
  /** A CA certificate (PEM) trusted in addition to the system's. */
  readonly trustedCaPem?: string;
}

/** Tunables of the lifecycle jobs and the export, from the environment. */
export interface PlatformSettings {
  readonly visibilityDelayMs: number;
  readonly anonRetentionDays: number;
  readonly emptySessionMaxAgeHours: number;
  readonly appDeletionBatchSize: number;
}

/** Everything the composition root builds; use cases take a narrow `Pick` of it. */
export interface Deps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly orgs: OrgStore;
  readonly credentials: CredentialStore;
  readonly apps: AppStore;
  readonly sessions: SessionStore;
  readonly consumers: ConsumerStore;
  readonly usage: UsageStore;
  readonly tombstones: TombstoneStore;
  readonly rateCounter: RateCounter;
  readonly jobs: JobQueue;
  readonly exportReader: ExportReader;
  readonly keys: KeyMaterial;
  readonly models: ModelCatalog;
  readonly tools: ToolGateway;
  readonly variables: SessionVariableStore;
  readonly billing: BillingStore;
  readonly releaseNotes: ReleaseNoteStore;
  readonly subscriptions: SubscriptionStore;
  readonly deliveryLog: DeliveryLog;
  readonly secrets: SecretSealer;
  readonly resolver: HostResolver;
  readonly webhookSender: WebhookSender;
  readonly webhookQueue: WebhookQueue;
  /** Exceptions to the SSRF policy: empty everywhere but in test wiring. */
  readonly webhookExceptions: readonly string[];
  readonly settings: PlatformSettings;
}
