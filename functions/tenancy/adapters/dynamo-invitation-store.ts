/**
 * Invitations in the org's partition (`ORG#<org>`, `INVITE#<id>`), with a pointer by token hash (to
 * accept) and one by e-mail (for sign-in), both written after the invitation and dropped once it is
 * used. Every item carries the table's TTL, some weeks after the invitation expires.
 */
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { INVITATION_KEEP_DAYS, type Invitation } from '../domain/invitations';
import type { InvitationStore } from '../app/members-ports';
import { queryAll, updateIfMatched } from '../../kernel/adapters/dynamo-batch';
import { definedFields } from '../../kernel/adapters/dynamo-batch';
import { TABLE_DESIGN } from '../../kernel/adapters/table-design';

const key = (orgId: string, id: string) => ({ pk: `ORG#${orgId}`, sk: `INVITE#${id}` });
const tokenKey = (hash: string) => ({ pk: `INVITETOKEN#${hash}`, sk: 'INVITETOKEN' });
const emailKey = (email: string, orgId: string, id: string) => ({ pk: `INVITEEMAIL#${email}`, sk: `${orgId}#${id}` });
const FIELDS = ['id', 'orgId', 'email', 'role', 'tokenHash', 'invitedBy', 'createdAtUs', 'expiresAtUs', 'acceptedAtUs', 'acceptedBy', 'revokedAtUs'] as const;
const toInvitation = (item: Record<string, unknown>) => definedFields<Invitation>(item, FIELDS);
const ttl = (inv: Invitation) => ({ [TABLE_DESIGN.ttlAttribute]: Math.ceil(inv.expiresAtUs / 1_000_000) + INVITATION_KEEP_DAYS * 86_400 });

export class DynamoInvitationStore implements InvitationStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(inv: Invitation): Promise<void> {
    const pointer = { orgId: inv.orgId, invitationId: inv.id, ...ttl(inv) };
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...key(inv.orgId, inv.id), type: 'invitation', ...inv, ...ttl(inv) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...emailKey(inv.email, inv.orgId, inv.id), type: 'invitation-email', ...pointer } }));
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...tokenKey(inv.tokenHash), type: 'invitation-token', ...pointer } }));
  }

  async get(orgId: string, id: string): Promise<Invitation | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(orgId, id), ConsistentRead: true }));
    return res.Item ? toInvitation(res.Item) : undefined;
  }

  async findByTokenHash(tokenHash: string): Promise<Invitation | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: tokenKey(tokenHash), ConsistentRead: true }));
    return res.Item ? this.get(res.Item.orgId as string, res.Item.invitationId as string) : undefined;
  }

  async listByOrg(orgId: string): Promise<Invitation[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :i)',
      ExpressionAttributeValues: { ':pk': `ORG#${orgId}`, ':i': 'INVITE#' },
      ConsistentRead: true,
    });
    return items.map(toInvitation).sort((a, b) => b.createdAtUs - a.createdAtUs || (a.id < b.id ? 1 : -1));
  }

  async listByEmail(email: string): Promise<Invitation[]> {
    const pointers = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `INVITEEMAIL#${email}` },
      ConsistentRead: true,
    });
    const found = await Promise.all(pointers.map((p) => this.get(p.orgId as string, p.invitationId as string)));
    return found.filter((i): i is Invitation => i !== undefined);
  }

  async accept(orgId: string, id: string, userKey: string, atUs: number): Promise<Invitation | undefined> {
    const item = await updateIfMatched(this.db, {
      TableName: this.table,
      Key: key(orgId, id),
      UpdateExpression: 'SET acceptedAtUs = :at, acceptedBy = :u',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(acceptedAtUs) AND attribute_not_exists(revokedAtUs) AND expiresAtUs > :at',
      ExpressionAttributeValues: { ':at': atUs, ':u': userKey },
    });
    if (item) return toInvitation(item);
    const current = await this.get(orgId, id);
    return current?.acceptedBy === userKey ? current : undefined;
  }

  async revoke(orgId: string, id: string, atUs: number): Promise<Invitation | undefined> {
    const item = await updateIfMatched(this.db, {
      TableName: this.table,
      Key: key(orgId, id),
      UpdateExpression: 'SET revokedAtUs = if_not_exists(revokedAtUs, :at)',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(acceptedAtUs)',
      ExpressionAttributeValues: { ':at': atUs },
    });
    return item ? toInvitation(item) : undefined;
  }

  async retire(inv: Invitation): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: tokenKey(inv.tokenHash) }));
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: emailKey(inv.email, inv.orgId, inv.id) }));
  }
}
