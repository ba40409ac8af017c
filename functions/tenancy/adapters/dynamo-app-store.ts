/**
 * Apps: the app item, a reservation item per `appNameId` (unique across the platform), and the org's
 * list in gsi1 (created_at, id). A deleted app leaves gsi1 at once and enters the sparse gsi4 work
 * queue of the deletion worker until its sessions and consumers are gone.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_APP_SETTINGS, appNameIdOf, mergeSettings, type App, type AppSettings } from '../domain/app';
import type { AppStore } from '../app/tenancy-ports';
import { timeIdKey } from '../../kernel/adapters/dynamo-batch';

export const appKey = (id: string) => ({ pk: `APP#${id}`, sk: 'APP' });
const nameKey = (appNameId: string) => ({ pk: `APPNAME#${appNameId}`, sk: 'APPNAME' });
const PENDING_DELETION = 'APPDEL';

export function appFromItem(item: Record<string, unknown>): App {
  const { id, orgId, name, slug, appNameId, settings: stored, createdAtUs, updatedAtUs, deletedAtUs } = item as unknown as App;
  // An app stored before a setting existed has that setting's default.
  const settings = mergeSettings(DEFAULT_APP_SETTINGS, stored);
  return { id, orgId, name, slug, appNameId, settings, createdAtUs, updatedAtUs, ...(deletedAtUs !== undefined ? { deletedAtUs } : {}) };
}

export class DynamoAppStore implements AppStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(input: Omit<App, 'appNameId'>): Promise<App> {
    const appNameId = await this.reserveNameId(input.slug, input.id);
    const app: App = { ...input, appNameId };
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...appKey(app.id), type: 'app', ...app, gsi1pk: `ORGAPPS#${app.orgId}`, gsi1sk: timeIdKey(app.createdAtUs, app.id) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return app;
  }

  /** Numbers come from one counter, so `<slug>-<n>` is unique without scanning; a taken name is skipped. */
  private async reserveNameId(slug: string, appId: string): Promise<string> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const counter = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: 'COUNTER#appname', sk: 'COUNTER' },
          UpdateExpression: 'ADD #v :one',
          ExpressionAttributeNames: { '#v': 'value' },
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      const appNameId = appNameIdOf(slug, 1000 + Number(counter.Attributes?.value));
      try {
        await this.db.send(
          new PutCommand({
            TableName: this.table,
            Item: { ...nameKey(appNameId), type: 'app-name', appId },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return appNameId;
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException)) throw err;
      }
    }
    throw new Error('could not reserve an appNameId');
  }

  async get(id: string): Promise<App | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: appKey(id), ConsistentRead: true }));
    return res.Item ? appFromItem(res.Item) : undefined;
  }

  async getByNameId(appNameId: string): Promise<App | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: nameKey(appNameId), ConsistentRead: true }));
    const appId = res.Item?.appId as string | undefined;
    if (!appId) return undefined;
    const app = await this.get(appId);
    return app && app.deletedAtUs === undefined ? app : undefined;
  }

  async listByOrg(orgId: string): Promise<App[]> {
    const apps: App[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const res = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': `ORGAPPS#${orgId}` },
          ScanIndexForward: false,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of res.Items ?? []) apps.push(appFromItem(item));
      start = res.LastEvaluatedKey;
    } while (start);
    return apps;
  }

  async update(id: string, patch: { name?: string; settings?: AppSettings }, atUs: number): Promise<App | undefined> {
    const sets = ['updatedAtUs = :at'];
    const values: Record<string, unknown> = { ':at': atUs };
    if (patch.name !== undefined) {
      sets.push('#name = :name');
      values[':name'] = patch.name;
    }
    if (patch.settings !== undefined) {
      sets.push('settings = :settings');
      values[':settings'] = patch.settings;
    }
    try {
      const res = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: appKey(id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAtUs)',
          ExpressionAttributeNames: patch.name !== undefined ? { '#name': 'name' } : undefined,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return res.Attributes ? appFromItem(res.Attributes) : undefined;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return undefined;
      throw err;
    }
  }

  async markDeleted(id: string, atUs: number): Promise<App | undefined> {
    try {
      const res = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: appKey(id),
          UpdateExpression: 'SET deletedAtUs = :at, updatedAtUs = :at, gsi4pk = :pending, gsi4sk = :pos REMOVE gsi1pk, gsi1sk',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAtUs)',
          ExpressionAttributeValues: { ':at': atUs, ':pending': PENDING_DELETION, ':pos': timeIdKey(atUs, id) },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return res.Attributes ? appFromItem(res.Attributes) : undefined;
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      return this.get(id);
    }
  }

  async listPendingDeletion(limit: number): Promise<App[]> {
    const res = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: 'gsi4',
        KeyConditionExpression: 'gsi4pk = :pk',
        ExpressionAttributeValues: { ':pk': PENDING_DELETION },
        Limit: limit,
      }),
    );
    return (res.Items ?? []).map(appFromItem);
  }

  async completeDeletion(id: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: appKey(id),
        UpdateExpression: 'SET deletionCompleted = :true REMOVE gsi4pk, gsi4sk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':true': true },
      }),
    );
  }
}
