import type { FilePorts, FileStore } from './file-ports';
import type { PlatformDeps } from '../../tenancy/app/tenancy-ports';
import type { Consumer } from '../domain/consumer';
import type { Message, Session } from '../domain/session';
import type { Micros } from '../../kernel/domain/time';
import type { Tombstone } from '../domain/tombstone';
import type { UsageRow } from '../domain/usage';

/** Metadata a touch may change in the same write. */
export interface SessionChanges {
  readonly title?: string;
  /** Opens a turn (its messages hidden until it closes) or closes the open one (null). */
  readonly openTurnId?: string | null;
}

/** A chat turn's hold on a session (docs/adr/0022). */
export interface TurnLease {
  readonly leaseId: string;
  readonly untilUs: Micros;
  /** The turn the holder opens on the session with the lease (its messages hidden until the turn closes). */
  readonly openTurnId?: string;
}

/** A turn closing in one write: what its holder knows of the session, the version it knows it at, its lease. */
export interface TurnClose {
  readonly session: Session;
  readonly version: number;
  readonly leaseId: string;
  readonly atUs: Micros;
  readonly lastMessageAtUs?: Micros;
}

/** Reading a live session and its transcript: the export, the Responses API's history, the retention checks. */
export interface SessionReader {
  /** The live session (not a reservation, not one being removed). */
  get(id: string): Promise<Session | undefined>;
  /** The session's messages, without those of its open turn (being written, or left by a crash). */
  listMessages(sessionId: string): Promise<Message[]>;
  /**
   * The session and its messages (as listMessages gives them) from one read of its partition;
   * undefined when the session is gone (removed, or never written).
   */
  transcript(sessionId: string): Promise<{ readonly session: Session; readonly messages: Message[] } | undefined>;
  /** The live sessions of one consumer, in no particular order (one index query of the consumer's sessions). */
  listOfConsumer(consumerId: string): Promise<Session[]>;
  /**
   * The live sessions of the org that carry this `external_id`, in no particular order: one query of the
   * external id's lookup items, then each session by key. Nothing of another org, however it is spelled.
   */
  listByExternalId(orgId: string, externalId: string): Promise<Session[]>;
}

/** What a chat turn (and an import) writes: the session, its turn lease, its messages (docs/adr/0022). */
/** What a session id names: a live session with the turn it has open (null when none), the app of a reservation, or nothing. */
export type SessionLookup =
  | { readonly session: Session; readonly openTurnId: string | null /** What the session item was read at (every touch moves it). */; readonly version: number }
  | { readonly reservedFor: string }
  | undefined;

export interface TurnSessionStore extends Pick<SessionReader, 'get' | 'listMessages'> {
  /**
   * Writes a new session; with `lease`, the session of a first turn, replacing its reservation and keeping
   * the lease (and opening the lease's turn). Returns the version it wrote the session at.
   */
  create(session: Session, lease?: TurnLease): Promise<number>;
  /**
   * Reserves the id of the session a first turn will create, holding its turn lease: a turn continuing
   * that id waits on it like on a busy session. Not a session: no list shows it and `get` ignores it.
   */
  reserve(id: string, appId: string, lease: TurnLease): Promise<void>;
  /**
   * In one read: the live session of this id with the turn it has open (null when none), or the app
   * of a reservation of it (held, or left by a crash). What a turn reads before and under its lease.
   */
  lookup(id: string): Promise<SessionLookup>;
  /** `lookup` and every stored message (those of an open turn included), in one read of the session's partition. */
  lookupWithMessages(id: string): Promise<{ readonly found: SessionLookup; readonly messages: readonly Message[] }>;
  /** Deletes the reservation of a first turn that failed; false (nothing done) when it is a session by now. */
  unreserve(id: string, leaseId: string): Promise<boolean>;
  /**
   * Advances the touch clock to `atUs` (never backwards) and applies `lastMessageAtUs` when given.
   * Returns false when the session does not exist.
   */
  touch(id: string, atUs: Micros, lastMessageAtUs?: Micros, changes?: SessionChanges): Promise<boolean>;
  /**
   * Takes the session's turn lease (one chat turn at a time per session) until `untilUs`, if nobody
   * holds an unexpired one; false when another turn holds it or the session is gone.
   */
  /**
   * False when the lease is held, or there is no such session (or, with `appId`, none of that app). With
   * `openTurnId`, the same write opens that turn, and a session with a turn open already (left by a
   * crash, to be discarded first) is refused as well.
   */
  acquireTurnLease(id: string, leaseId: string, nowUs: Micros, untilUs: Micros, appId?: string, openTurnId?: string): Promise<boolean>;
  /** Opens a turn on a session whose lease this holder has and which has no turn open; false otherwise. */
  openTurn(id: string, leaseId: string, turnId: string): Promise<boolean>;
  /** Extends a lease this holder still holds; false when it lost it. */
  renewTurnLease(id: string, leaseId: string, untilUs: Micros): Promise<boolean>;
  /** Gives a lease back (nothing when another holder has it now); with `openTurnId`, closes that turn of the holder's, which wrote nothing. */
  releaseTurnLease(id: string, leaseId: string, openTurnId?: string): Promise<void>;
  /**
   * Closes a turn in one write, if the session is still at `version` and the lease still the holder's:
   * the touch clock to `atUs` and `last_message_at` forward (as `touch`), the open turn closed, the lease
   * given back. False, with nothing written, when anything changed meanwhile (the caller touches instead).
   */
  closeTurn(id: string, close: TurnClose): Promise<boolean>;
  /** A turn's messages and usage rows in as few batch writes as DynamoDB allows, each an idempotent single-item write. */
  putTurnItems(messages: readonly Message[], usage: readonly UsageRow[]): Promise<void>;
  /** Writes a message, or overwrites the message with the same id and creation time (an edit). */
  putMessage(message: Message): Promise<void>;
  /** Several messages in as few calls as DynamoDB allows (batches of 25): each an idempotent single-item write. */
  putMessages(messages: readonly Message[]): Promise<void>;
  removeMessage(sessionId: string, message: Pick<Message, 'id' | 'createdAtUs'>): Promise<void>;
  /** Deletes the messages of a turn a crash left open, then closes it (idempotent). */
  discardOpenTurn(sessionId: string, openTurnId: string): Promise<void>;
}

/** Removing sessions: the deletions, the app-deletion worker and the retention jobs. */
export interface SessionRemovalStore extends Pick<SessionReader, 'get'> {
  /**
   * The session even while a removal is under way (hidden from `get` and the lists, not yet deleted), so
   * an interrupted removal can be found and re-run.
   */
  getForRemoval(id: string): Promise<Session | undefined>;
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

/** Sessions and their messages, one partition each: every port above, served by one adapter. */
export interface SessionStore extends SessionReader, TurnSessionStore, SessionRemovalStore {}

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

/** Sessions, consumers, usage, tombstones and file records: written by chat and lifecycle, read by the export. */
export interface ConversationPorts {
  readonly files: FileStore;
  readonly sessions: SessionStore;
  readonly consumers: ConsumerStore;
  readonly usage: UsageStore;
  readonly tombstones: TombstoneStore;
}

/** Session-scoped variables: stored with the session and removed with it, never returned or logged. */
export interface SessionVariableStore {
  get(sessionId: string): Promise<Record<string, string>>;
  /** Merges `variables` over the stored ones. */
  merge(sessionId: string, variables: Readonly<Record<string, string>>): Promise<Record<string, string>>;
}

/**
 * The metadata of a session used as a Conversations API conversation: stored with the session and
 * removed with it, never exported (area A's shapes do not carry it).
 */
export interface ConversationMetadataStore {
  get(sessionId: string): Promise<Record<string, string>>;
  /** Replaces the metadata. */
  put(sessionId: string, metadata: Readonly<Record<string, string>>): Promise<void>;
}

/** Everything a use case over conversations (and the areas built on them) may pick its deps from. */
export type ConversationDeps = PlatformDeps & ConversationPorts & FilePorts;
