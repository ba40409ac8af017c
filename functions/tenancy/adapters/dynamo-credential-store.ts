/**
 * Credentials keyed by their SHA-256 hash (strongly consistent lookup on every request), plus a pointer
 * by id for revocation. The hash item is written last, so a key works only once it is complete.
 * The pointer is also the org's key list (gsi1 `ORGCREDS#<org>`, created_at then id) and holds the
 * key's last use, so that write needs no hash (a gateway's grant carries the id only).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ListedCredential, StoredCredential } from '../domain/credentials';
import type { CredentialFilter, CredentialPage, CredentialStore } from '../app/tenancy-ports';
import { decodePositionCursor, encodePositionCursor } from '../../kernel/domain/position-cursor';
import type { Micros } from '../../kernel/domain/time';
import { definedFields, queryPages, sendConditional, timeIdKey, updateIfMatched } from '../../kernel/adapters/dynamo-batch';

const hashKey = (hash: string) => ({ pk: `CRED#${hash}`, sk: 'CRED' });
const idKey = (id: string) => ({ pk: `CREDID#${id}`, sk: 'CREDID' });
const orgList = (orgId: string) => `ORGCREDS#${orgId}`;

const FIELDS = [
  'id',
  'kind',
  'hash',
  'orgId',
  'appId',
  'scopes',
  'name',
  'displayPrefix',
  'createdAtUs',
  'expiresAtUs',
  'revokedAtUs',
  'createdBy',
  'rotatedFromId',
  'rotatedToId',
] as const;

const toCredential = (item: Record<string, unknown>) => definedFields<StoredCredential>(item, FIELDS);

const matches = (c: StoredCredential, f: CredentialFilter) => (f.appId === undefined || c.appId === f.appId) && (f.kind === undefined || c.kind === f.kind);

const encodePosition = (c: StoredCredential) => encodePositionCursor(c.createdAtUs, c.id);

function decodePosition(cursor: string): string {
  const { us, id } = decodePositionCursor(cursor);
  return timeIdKey(us, id);
}

export class DynamoCredentialStore implements CredentialStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(cred: StoredCredential): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...idKey(cred.id), type: 'credential-id', hash: cred.hash, gsi1pk: orgList(cred.orgId), gsi1sk: timeIdKey(cred.createdAtUs, cred.id) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...hashKey(cred.hash), type: 'credential', ...cred, scopes: [...cred.scopes] },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async findByHash(hash: string): Promise<StoredCredential | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: hashKey(hash), ConsistentRead: true }));
    return res.Item ? toCredential(res.Item) : undefined;
  }

  async getById(id: string): Promise<StoredCredential | undefined> {
    const ptr = await this.db.send(new GetCommand({ TableName: this.table, Key: idKey(id), ConsistentRead: true }));
    const hash = ptr.Item?.hash as string | undefined;
    return hash ? this.findByHash(hash) : undefined;
  }

  async revoke(id: string, atUs: number): Promise<StoredCredential | undefined> {
    const current = await this.getById(id);
    if (!current) return undefined;
    if (current.revokedAtUs !== undefined) return current;
    const res = await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: hashKey(current.hash),
        UpdateExpression: 'SET revokedAtUs = if_not_exists(revokedAtUs, :at)',
        ExpressionAttributeValues: { ':at': atUs },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return res.Attributes ? toCredential(res.Attributes) : undefined;
  }

  async listByOrg(orgId: string, filter: CredentialFilter, limit: number, cursor?: string): Promise<CredentialPage> {
    const before = cursor !== undefined ? decodePosition(cursor) : undefined;
    const pages = queryPages(this.db, {
      TableName: this.table,
      IndexName: 'gsi1',
      KeyConditionExpression: before !== undefined ? 'gsi1pk = :pk AND gsi1sk < :before' : 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': orgList(orgId), ...(before !== undefined ? { ':before': before } : {}) },
      ScanIndexForward: false,
      Limit: limit + 1,
    });
    const found: ListedCredential[] = [];
    // One more than the page tells whether a next page exists; the loop stops reading once it has it.
    for await (const page of pages) {
      const listed = await Promise.all(page.items.map((pointer) => this.listed(pointer)));
      for (const c of listed) if (c && matches(c, filter)) found.push(c);
      if (found.length > limit) break;
    }
    const shown = found.slice(0, limit);
    return { credentials: shown, ...(found.length > limit ? { cursor: encodePosition(shown[shown.length - 1]!) } : {}) };
  }

  /** The credential a list pointer names, with its last use; undefined for a key whose creation never completed. */
  private async listed(pointer: Record<string, unknown>): Promise<ListedCredential | undefined> {
    const cred = typeof pointer.hash === 'string' ? await this.findByHash(pointer.hash) : undefined;
    if (!cred) return undefined;
    return typeof pointer.lastUsedAtUs === 'number' ? { ...cred, lastUsedAtUs: pointer.lastUsedAtUs } : cred;
  }

  async touchLastUsed(id: string, atUs: Micros, minIntervalUs: Micros): Promise<boolean> {
    return sendConditional(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: idKey(id),
        UpdateExpression: 'SET lastUsedAtUs = :at',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastUsedAtUs) OR lastUsedAtUs < :since)',
        ExpressionAttributeValues: { ':at': atUs, ':since': atUs - minIntervalUs },
      }),
    );
  }

  async beginRotation(id: string, successorId: string): Promise<{ readonly displaced?: string } | undefined> {
    const current = await this.getById(id);
    if (!current) return undefined;
    try {
      const res = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: hashKey(current.hash),
          UpdateExpression: 'SET pendingSuccessorId = :s',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAtUs) AND attribute_not_exists(rotatedToId)',
          ExpressionAttributeValues: { ':s': successorId },
          ReturnValues: 'UPDATED_OLD',
        }),
      );
      const displaced = res.Attributes?.pendingSuccessorId;
      return typeof displaced === 'string' ? { displaced } : {};
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return undefined;
      throw err;
    }
  }

  async completeRotation(
    id: string,
    successorId: string,
    end: { readonly revokedAtUs: Micros } | { readonly expiresAtUs: Micros },
  ): Promise<StoredCredential | undefined> {
    const current = await this.getById(id);
    if (!current) return undefined;
    const [field, value] = 'revokedAtUs' in end ? ['revokedAtUs', end.revokedAtUs] : ['expiresAtUs', end.expiresAtUs];
    const item = await updateIfMatched(this.db, {
      TableName: this.table,
      Key: hashKey(current.hash),
      UpdateExpression: `SET rotatedToId = :s, ${field} = :end REMOVE pendingSuccessorId`,
      ConditionExpression: 'pendingSuccessorId = :s AND attribute_not_exists(revokedAtUs) AND attribute_not_exists(rotatedToId)',
      ExpressionAttributeValues: { ':s': successorId, ':end': value },
    });
    return item ? toCredential(item) : undefined;
  }
}
