import type { ReleasePeriod } from '../domain/release-notes';
import type { Micros } from '../../kernel/domain/time';
import type { AttemptOutcome } from '../domain/webhook-delivery';
import type { DeliveryErrorClass } from '../../kernel/domain/outbound-webhook';
import type { WebhookSubscription } from '../domain/webhook-subscription';
import type { PlatformDeps } from '../../tenancy/app/tenancy-ports';
import type { CallbackCheckDeps, SecretSealer, WebhookSender } from '../../kernel/app/outbound-webhook-ports';

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

/** Messages of the webhooks queue. */
export type WebhookMessage =
  | { readonly type: 'fan-out'; readonly periodId: string; readonly revision: string; readonly cursor?: string }
  | { readonly type: 'deliver'; readonly subscriptionId: string; readonly periodId: string; readonly revision: string; readonly attempt: number };

export interface WebhookQueue {
  /** Sends every message (batched by the adapter), each with the same delay. */
  send(messages: readonly WebhookMessage[], delaySeconds?: number): Promise<void>;
}

/** Release notes and webhooks (area D), over the platform's callback check (resolver and SSRF exceptions). */
export interface ReleaseNotesPorts extends CallbackCheckDeps {
  readonly releaseNotes: ReleaseNoteStore;
  readonly subscriptions: SubscriptionStore;
  readonly deliveryLog: DeliveryLog;
  /** Seals each subscription's signing secret bound to `{ subscriptionId }`, the binding every stored secret carries. */
  readonly secrets: SecretSealer;
  readonly webhookQueue: WebhookQueue;
}

/** What only the webhooks worker needs: the HTTP client that delivers (kept out of the other bundles). */
export interface WebhookDeliveryPorts {
  readonly webhookSender: WebhookSender;
}

/** Everything a use case of this area may pick its deps from. */
export type ReleaseNotesDeps = PlatformDeps & ReleaseNotesPorts & WebhookDeliveryPorts;
