/** The org item and the org's money (its credits, an attribute of that item, and its apps' monthly spend). */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Org } from '../domain/org';
import type { OrgStore, BillingStore } from '../app/tenancy-ports';
import { GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';

const key = (id: string) => ({ pk: `ORG#${id}`, sk: 'ORG' });

export class DynamoOrgStore implements OrgStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(org: Org): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...key(org.id), type: 'org', ...org },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(id: string): Promise<Org | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(id), ConsistentRead: true }));
    if (!res.Item) return undefined;
    const { id: orgId, name, plan, createdAtUs, updatedAtUs } = res.Item as Org;
    return { id: orgId, name, plan, createdAtUs, updatedAtUs };
  }
}

/*
 * Credits and spend in pico-dollars (1e-12 USD), kept as DynamoDB numbers (38 digits) and read and
 * written as decimal strings, never as JavaScript floats. Credits are an attribute of the org item;
 * an org without it has no prepaid account. Month-to-date spend is one counter item per app and month.
 */

const orgKey = (orgId: string) => ({ pk: { S: `ORG#${orgId}` }, sk: { S: 'ORG' } });
const spendKey = (appId: string, month: string) => ({ pk: { S: `SPEND#${appId}#${month}` }, sk: { S: 'SPEND' } });

export class DynamoBillingStore implements BillingStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async credits(orgId: string): Promise<bigint | undefined> {
    const res = await this.db.send(
      new GetItemCommand({ TableName: this.table, Key: orgKey(orgId), ConsistentRead: true, ProjectionExpression: 'creditsPico' }),
    );
    const n = res.Item?.creditsPico?.N;
    return n === undefined ? undefined : BigInt(n);
  }

  async addCredits(orgId: string, pico: bigint): Promise<bigint> {
    const res = await this.db.send(
      new UpdateItemCommand({
        TableName: this.table,
        Key: orgKey(orgId),
        UpdateExpression: 'ADD creditsPico :n',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':n': { N: pico.toString() } },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return BigInt(res.Attributes?.creditsPico?.N ?? '0');
  }

  async monthSpend(appId: string, month: string): Promise<bigint> {
    const res = await this.db.send(new GetItemCommand({ TableName: this.table, Key: spendKey(appId, month), ConsistentRead: true }));
    return BigInt(res.Item?.pico?.N ?? '0');
  }

  async charge(orgId: string, appId: string, month: string, pico: bigint): Promise<void> {
    if (pico === 0n) return;
    await this.db.send(
      new UpdateItemCommand({
        TableName: this.table,
        Key: spendKey(appId, month),
        UpdateExpression: 'ADD pico :n SET #type = :type',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':n': { N: pico.toString() }, ':type': { S: 'spend' } },
      }),
    );
    try {
      await this.db.send(
        new UpdateItemCommand({
          TableName: this.table,
          Key: orgKey(orgId),
          UpdateExpression: 'ADD creditsPico :n',
          // Only a prepaid org has a balance to draw down.
          ConditionExpression: 'attribute_exists(creditsPico)',
          ExpressionAttributeValues: { ':n': { N: (-pico).toString() } },
        }),
      );
    } catch (err) {
      if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
    }
  }
}
