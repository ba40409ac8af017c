/**
 * The ports of members, roles, invitations and the audit log, and the deps their use cases pick from.
 * No store offers a transaction: each method is one or a few idempotent single-item writes, and the
 * use cases order them so a crash part-way converges on retry (docs/adr/0040).
 */
import type { AuditRecord } from '../domain/audit';
import type { Invitation } from '../domain/invitations';
import type { Member, Person } from '../domain/members';
import type { Role } from '../domain/roles';
import type { Micros } from '../../kernel/domain/time';
import type { Clock, IdGenerator } from '../../kernel/app/kernel-ports';
import type { OrgStore } from './tenancy-ports';

export interface PersonStore {
  get(userKey: string): Promise<Person | undefined>;
  /** Records a first sign-in; false when the person is already known (then read the one that won). */
  claim(person: Person): Promise<boolean>;
  /** The first sign-in is complete. Idempotent. */
  settle(userKey: string): Promise<void>;
}

export interface MemberStore {
  get(orgId: string, userKey: string): Promise<Member | undefined>;
  /** The org's members, by user key. */
  listByOrg(orgId: string): Promise<Member[]>;
  /** The memberships of a person, by org id. */
  listByPerson(userKey: string): Promise<Member[]>;
  /**
   * Writes a new membership (a first owner, an accepted invitation). Idempotent; the person's pointer
   * is written first, so a membership is listed for its person as soon as it exists.
   */
  put(member: Member): Promise<void>;
  /**
   * Moves a membership from role `from` to `to`; undefined when it is gone or its role is not `from`
   * any more (another change came first), so a stale read never overwrites a newer change.
   */
  changeRole(orgId: string, userKey: string, from: Role, to: Role): Promise<Member | undefined>;
  /**
   * Removes the membership if its role is still `role` (or it is gone already), then the person's
   * pointer; false when its role changed meanwhile. Idempotent.
   */
  remove(orgId: string, userKey: string, role: Role): Promise<boolean>;
  /**
   * The owners the last-owner guard counts: always a subset of the members whose role is owner (an
   * owner is added after its membership is written and removed before it changes), never empty once
   * the org's first owner is in.
   */
  owners(orgId: string): Promise<readonly string[]>;
  addOwner(orgId: string, userKey: string): Promise<void>;
  /**
   * Takes `userKey` out of the owners unless it is the last one there: 'removed', 'last' (refused),
   * or 'absent' (it was not there: a retry, or an owner whose promotion did not finish).
   */
  releaseOwner(orgId: string, userKey: string): Promise<'removed' | 'last' | 'absent'>;
}

export interface InvitationStore {
  /** Writes the invitation, then its e-mail pointer, then its token pointer (a token works only once all are in). */
  create(inv: Invitation): Promise<void>;
  get(orgId: string, id: string): Promise<Invitation | undefined>;
  findByTokenHash(tokenHash: string): Promise<Invitation | undefined>;
  /** The org's invitations in any state, newest first. */
  listByOrg(orgId: string): Promise<Invitation[]>;
  /** Invitations to an e-mail address, in any state. */
  listByEmail(email: string): Promise<Invitation[]>;
  /**
   * Marks a pending invitation accepted by `userKey`; the invitation as it now is, or undefined when it
   * was not pending at `atUs`. Accepting again by the same person answers the same invitation.
   */
  accept(orgId: string, id: string, userKey: string, atUs: Micros): Promise<Invitation | undefined>;
  /** Marks a pending invitation revoked; revoking twice keeps the first time. Undefined when none is pending or revoked. */
  revoke(orgId: string, id: string, atUs: Micros): Promise<Invitation | undefined>;
  /** Drops the token and e-mail pointers of an invitation that can no longer be used. Idempotent. */
  retire(inv: Invitation): Promise<void>;
}

export interface AuditFilter {
  readonly actorId?: string;
  readonly action?: string;
  readonly resourceType?: string;
}

export interface AuditPage {
  readonly records: AuditRecord[];
  /** Where the next page starts; absent on the last page. */
  readonly cursor?: string;
}

export interface AuditLog {
  /** Stores the record under its id: writing the same record twice keeps one. */
  append(record: AuditRecord): Promise<void>;
  /** The org's records newest first (time, then id), `limit` at most, from `cursor` on. */
  list(orgId: string, filter: AuditFilter, limit: number, cursor?: string): Promise<AuditPage>;
}

/** What the member, invitation and audit use cases may pick their deps from. */
export interface MembersDeps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly orgs: OrgStore;
  readonly persons: PersonStore;
  readonly members: MemberStore;
  readonly invitations: InvitationStore;
  readonly audit: AuditLog;
}
