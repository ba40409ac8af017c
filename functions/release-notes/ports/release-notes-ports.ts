import type { ReleasePeriod } from '../domain/release-notes';
import type { Micros } from '../../platform/domain/time';
import type { AttemptOutcome, AttemptResult, DeliveryErrorClass } from '../domain/webhook-delivery';
import type { WebhookSubscription } from '../domain/webhook-subscription';
import type { PlatformDeps } from '../../platform/ports/platform-ports';

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

/** Encrypts webhook signing secrets at rest (docs/design.md §4): KMS on AWS, a key file in the data directory locally. */
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

/** Release notes and webhooks (area D). */
export interface ReleaseNotesPorts {
  readonly releaseNotes: ReleaseNoteStore;
  readonly subscriptions: SubscriptionStore;
  readonly deliveryLog: DeliveryLog;
  readonly secrets: SecretSealer;
  readonly resolver: HostResolver;
  readonly webhookQueue: WebhookQueue;
  /** Exceptions to the SSRF policy: empty everywhere but in test wiring. */
  readonly webhookExceptions: readonly string[];
}

/** What only the webhooks worker needs: the HTTP client that delivers (kept out of the other bundles). */
export interface WebhookDeliveryPorts {
  readonly webhookSender: WebhookSender;
}

/** Everything a use case of this area may pick its deps from. */
export type ReleaseNotesDeps = PlatformDeps & ReleaseNotesPorts & WebhookDeliveryPorts;
