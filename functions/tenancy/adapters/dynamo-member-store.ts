/**
 * Memberships in the org's partition (`ORG#<org>`, `MEMBER#<userKey>`, beside the org item), a pointer
 * in the person's partition (`PERSON#<userKey>`, `MEMBER#<org>`) for the orgs of a person, and the
 * owner guard (`ORG#<org>`, `OWNERS`: a string set). The pointer is written before the membership and
 * removed after it, and a person's list reads each membership back, so a crash leaves at most a
 * pointer that lists nothing.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Member } from '../domain/members';
import type { Role } from '../domain/roles';
import type { MemberStore } from '../app/members-ports';
import { queryAll, sendConditional, updateIfMatched } from '../../kernel/adapters/dynamo-batch';
import { definedFields } from '../../kernel/adapters/dynamo-batch';
import { personPk } from './dynamo-person-store';

const orgPk = (orgId: string) => `ORG#${orgId}`;
const memberKey = (orgId: string, userKey: string) => ({ pk: orgPk(orgId), sk: `MEMBER#${userKey}` });
const pointerKey = (userKey: string, orgId: string) => ({ pk: personPk(userKey), sk: `MEMBER#${orgId}` });
const ownersKey = (orgId: string) => ({ pk: orgPk(orgId), sk: 'OWNERS' });
const FIELDS = ['orgId', 'userKey', 'email', 'role', 'joinedAtUs'] as const;
const toMember = (item: Record<string, unknown>) => definedFields<Member>(item, FIELDS);

export class DynamoMemberStore implements MemberStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(orgId: string, userKey: string): Promise<Member | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: memberKey(orgId, userKey), ConsistentRead: true }));
    return res.Item ? toMember(res.Item) : undefined;
  }

  async listByOrg(orgId: string): Promise<Member[]> {
    return (await this.partition(orgPk(orgId))).map(toMember);
  }

  async listByPerson(userKey: string): Promise<Member[]> {
    const pointers = await this.partition(personPk(userKey));
    const members = await Promise.all(pointers.map((p) => this.get(p.orgId as string, userKey)));
    return members.filter((m): m is Member => m !== undefined);
  }

  async put(member: Member): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...pointerKey(member.userKey, member.orgId), type: 'member-pointer', orgId: member.orgId } }),
    );
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...memberKey(member.orgId, member.userKey), type: 'member', ...member } }));
  }

  async changeRole(orgId: string, userKey: string, from: Role, to: Role): Promise<Member | undefined> {
    const item = await updateIfMatched(this.db, {
      TableName: this.table,
      Key: memberKey(orgId, userKey),
      UpdateExpression: 'SET #role = :to',
      ConditionExpression: '#role = :from',
      ExpressionAttributeNames: { '#role': 'role' },
      ExpressionAttributeValues: { ':from': from, ':to': to },
    });
    return item ? toMember(item) : undefined;
  }

  async remove(orgId: string, userKey: string, role: Role): Promise<boolean> {
    const removed = await sendConditional(
      this.db,
      new DeleteCommand({
        TableName: this.table,
        Key: memberKey(orgId, userKey),
        ConditionExpression: 'attribute_not_exists(pk) OR #role = :role',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':role': role },
      }),
    );
    if (removed) await this.db.send(new DeleteCommand({ TableName: this.table, Key: pointerKey(userKey, orgId) }));
    return removed;
  }

  async owners(orgId: string): Promise<readonly string[]> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: ownersKey(orgId), ConsistentRead: true }));
    const set = res.Item?.owners as Set<string> | undefined;
    return set ? [...set].sort() : [];
  }

  async addOwner(orgId: string, userKey: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: ownersKey(orgId),
        UpdateExpression: 'ADD owners :u SET #type = :type',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':u': new Set([userKey]), ':type': 'org-owners' },
      }),
    );
  }

  async releaseOwner(orgId: string, userKey: string): Promise<'removed' | 'last' | 'absent'> {
    const removed = await sendConditional(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: ownersKey(orgId),
        UpdateExpression: 'DELETE owners :u',
        ConditionExpression: 'contains(owners, :k) AND size(owners) > :one',
        ExpressionAttributeValues: { ':u': new Set([userKey]), ':k': userKey, ':one': 1 },
      }),
    );
    if (removed) return 'removed';
    const owners = await this.owners(orgId);
    // An empty guard (an org whose first owner is not in yet) protects the owner it is about to hold.
    return owners.length === 0 || owners.includes(userKey) ? 'last' : 'absent';
  }

  /** The items of a partition whose sort key starts `MEMBER#`. */
  private partition(pk: string): Promise<Record<string, unknown>[]> {
    return queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :m)',
      ExpressionAttributeValues: { ':pk': pk, ':m': 'MEMBER#' },
      ConsistentRead: true,
    });
  }
}
