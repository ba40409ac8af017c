/**
 * The org item and the org's money (its credits, an attribute of that item, and its apps' monthly spend),
 * and a chat key's admission, which reads them with the app in one round trip.
 */
import { GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Org, Plan } from '../domain/org';
import type { Micros } from '../../kernel/domain/time';
import type { OrgStore, BillingStore, ChatAdmissionReader, ChatBillingState } from '../app/tenancy-ports';
import type { App } from '../domain/app';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { appFromItem, appKey } from './dynamo-app-store';
import { GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { batchGetRaw, timeIdKey } from '../../kernel/adapters/dynamo-batch';

const key = (id: string) => ({ pk: `ORG#${id}`, sk: 'ORG' });
/** Every org sits in one partition of the jobs' index, by (created_at, id): the list the per-org jobs walk. */
const ALL_ORGS = 'ORGS';
/** Where putting older orgs on the list got to (`from`), or that it is done (`complete`). */
const LISTING_KEY = { pk: 'ORGS', sk: 'LISTING' };

export const orgFromItem = (item: Record<string, unknown>): Org => {
  const { id, name, plan, createdAtUs, updatedAtUs } = item as unknown as Org;
  return { id, name, plan, createdAtUs, updatedAtUs };
};

export class DynamoOrgStore implements OrgStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(org: Org): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...key(org.id), type: 'org', ...org, gsi4pk: ALL_ORGS, gsi4sk: timeIdKey(org.createdAtUs, org.id) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(id: string): Promise<Org | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(id), ConsistentRead: true }));
    return res.Item ? orgFromItem(res.Item) : undefined;
  }

  async update(id: string, patch: { readonly name?: string; readonly plan?: Plan }, atUs: Micros): Promise<Org | undefined> {
    const sets = ['updatedAtUs = :at', ...(patch.name !== undefined ? ['#name = :name'] : []), ...(patch.plan !== undefined ? ['#plan = :plan'] : [])];
    const names = { ...(patch.name !== undefined ? { '#name': 'name' } : {}), ...(patch.plan !== undefined ? { '#plan': 'plan' } : {}) };
    try {
      const res = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          // DynamoDB refuses an empty map: an empty patch (`{}`) only touches updatedAtUs.
          ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: {
            ':at': atUs,
            ...(patch.name !== undefined ? { ':name': patch.name } : {}),
            ...(patch.plan !== undefined ? { ':plan': patch.plan } : {}),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return res.Attributes ? orgFromItem(res.Attributes) : undefined;
    } catch (err) {
      if ((err as Error).name === 'ConditionalCheckFailedException') return undefined;
      throw err;
    }
  }

  async list(limit: number, after?: string): Promise<{ orgs: Org[]; next?: string }> {
    const res = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi4',
        KeyConditionExpression: after === undefined ? 'gsi4pk = :pk' : 'gsi4pk = :pk AND gsi4sk > :after',
        ExpressionAttributeValues: { ':pk': ALL_ORGS, ...(after === undefined ? {} : { ':after': after }) },
        Limit: limit,
      }),
    );
    const items = res.Items ?? [];
    const last = items[items.length - 1];
    return { orgs: items.map(orgFromItem), ...(res.LastEvaluatedKey && last ? { next: String(last.gsi4sk) } : {}) };
  }

  /**
   * Orgs written before the list existed have no list entry: a scan of the table, a few pages per call,
   * adds theirs (conditional on the org still being there), and a marker item remembers where it got to.
   */
  async completeListing(maxPages: number): Promise<boolean> {
    const marker = await this.db.send(new GetCommand({ TableName: this.table, Key: LISTING_KEY, ConsistentRead: true }));
    if (marker.Item?.complete === true) return true;
    let from = marker.Item?.from as Record<string, unknown> | undefined;
    for (let page = 0; page < maxPages; page++) {
      const res = await this.db.send(
        new ScanCommand({
          TableName: this.table,
          FilterExpression: 'sk = :org AND begins_with(pk, :prefix) AND attribute_not_exists(gsi4pk)',
          ExpressionAttributeValues: { ':org': 'ORG', ':prefix': 'ORG#' },
          ...(from ? { ExclusiveStartKey: from } : {}),
        }),
      );
      for (const item of res.Items ?? []) {
        await this.db
          .send(
            new UpdateCommand({
              TableName: this.table,
              Key: { pk: item.pk, sk: item.sk },
              UpdateExpression: 'SET gsi4pk = :all, gsi4sk = :pos',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':all': ALL_ORGS, ':pos': timeIdKey(Number(item.createdAtUs), String(item.id)) },
            }),
          )
          .catch((err: unknown) => {
            if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
          });
      }
      from = res.LastEvaluatedKey;
      if (!from) break;
    }
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...LISTING_KEY, type: 'org-listing', ...(from ? { from } : { complete: true }) } }));
    return from === undefined;
  }
}

/*
 * Credits and spend in pico-dollars (1e-12 USD), kept as DynamoDB numbers (38 digits) and read and
 * written as decimal strings, never as JavaScript floats. Credits are an attribute of the org item;
 * an org without it has no prepaid account. Month-to-date spend is one counter item per app and month.
 */

export const orgKey = (orgId: string) => ({ pk: { S: `ORG#${orgId}` }, sk: { S: 'ORG' } });
export const spendKey = (appId: string, month: string) => ({ pk: { S: `SPEND#${appId}#${month}` }, sk: { S: 'SPEND' } });

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

  async charge(orgId: string, appId: string, month: string, pico: bigint): Promise<void> {
    if (pico === 0n) return;
    // Two independent counters, written side by side.
    await Promise.all([
      this.db.send(
        new UpdateItemCommand({
          TableName: this.table,
          Key: spendKey(appId, month),
          UpdateExpression: 'ADD pico :n SET #type = :type',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':n': { N: pico.toString() }, ':type': { S: 'spend' } },
        }),
      ),
      this.db
        .send(
          new UpdateItemCommand({
            TableName: this.table,
            Key: orgKey(orgId),
            UpdateExpression: 'ADD creditsPico :n',
            // Only a prepaid org has a balance to draw down.
            ConditionExpression: 'attribute_exists(creditsPico)',
            ExpressionAttributeValues: { ':n': { N: (-pico).toString() } },
          }),
        )
        .catch((err: unknown) => {
          if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
        }),
    ]);
  }
}

/**
 * A chat key's admission in one BatchGetItem: the org item (with its credits), the app item and the app's
 * spend counter for the month, as raw attribute values so credits and spend keep every digit.
 */
export class DynamoChatAdmissionReader implements ChatAdmissionReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async read(input: { orgId: string; appId: string; month: string }): Promise<{ org?: Org; app?: App; billing: ChatBillingState }> {
    const items = await batchGetRaw(this.db, this.table, [
      orgKey(input.orgId),
      { pk: { S: appKey(input.appId).pk }, sk: { S: appKey(input.appId).sk } },
      spendKey(input.appId, input.month),
    ]);
    const byKind = new Map(items.map((item) => [item.sk?.S, item]));
    const orgItem = byKind.get('ORG');
    const appItem = byKind.get('APP');
    // Credits are taken out before the item is unmarshalled: unmarshall refuses a number past 2^53.
    const { creditsPico, ...org } = orgItem ?? {};
    const credits = creditsPico?.N;
    return {
      ...(orgItem ? { org: orgFromItem(unmarshall(org)) } : {}),
      ...(appItem ? { app: appFromItem(unmarshall(appItem)) } : {}),
      billing: {
        month: input.month,
        creditsPico: credits === undefined ? undefined : BigInt(credits),
        monthSpendPico: BigInt(byKind.get('SPEND')?.pico?.N ?? '0'),
      },
    };
  }
}
