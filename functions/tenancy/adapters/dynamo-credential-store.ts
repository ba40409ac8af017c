/**
 * Credentials keyed by their SHA-256 hash (strongly consistent lookup on every request), plus a pointer
 * by id for revocation. The hash item is written last, so a key works only once it is complete.
 */
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StoredCredential } from '../domain/credentials';
import type { CredentialStore } from '../app/tenancy-ports';
import { definedFields, timeIdKey } from '../../kernel/adapters/dynamo-batch';

const hashKey = (hash: string) => ({ pk: `CRED#${hash}`, sk: 'CRED' });
const idKey = (id: string) => ({ pk: `CREDID#${id}`, sk: 'CREDID' });

const FIELDS = ['id', 'kind', 'hash', 'orgId', 'appId', 'scopes', 'name', 'displayPrefix', 'createdAtUs', 'expiresAtUs', 'revokedAtUs'] as const;

const toCredential = (item: Record<string, unknown>) => definedFields<StoredCredential>(item, FIELDS);

export class DynamoCredentialStore implements CredentialStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(cred: StoredCredential): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...idKey(cred.id), type: 'credential-id', hash: cred.hash, gsi1pk: `ORGCREDS#${cred.orgId}`, gsi1sk: timeIdKey(cred.createdAtUs, cred.id) },
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
}
