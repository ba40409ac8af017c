/**
 * Products (`PRODUCT#<id>` / `PRODUCT`), listed per app on gsi2 (`APPPROD#<appId>`, by creation then id).
 */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Product, ProductPatch } from '../domain/product';
import type { Micros } from '../../kernel/domain/time';
import type { ProductStore } from '../app/acp-ports';
import { queryAll, updateIfMatched, fieldsOrNull, timeIdKey } from '../../kernel/adapters/dynamo-batch';

export const productKey = (id: string) => ({ pk: `PRODUCT#${id}`, sk: 'PRODUCT' });
const FIELDS = [
  'id',
  'orgId',
  'appId',
  'title',
  'description',
  'priceMinor',
  'currency',
  'inventory',
  'active',
  'imageUrl',
  'createdAtUs',
  'updatedAtUs',
] as const;

export const productFromItem = (item: Record<string, unknown>) => fieldsOrNull<Product>(item, FIELDS);

function itemOf(p: Product): Record<string, unknown> {
  return { ...productKey(p.id), type: 'product', ...p, gsi2pk: `APPPROD#${p.appId}`, gsi2sk: timeIdKey(p.createdAtUs, p.id) };
}

export class DynamoProductStore implements ProductStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async create(product: Product): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: itemOf(product), ConditionExpression: 'attribute_not_exists(pk)' }));
  }

  async get(id: string): Promise<Product | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: productKey(id), ConsistentRead: true }));
    return res.Item ? productFromItem(res.Item) : undefined;
  }

  async listByApp(appId: string, opts: { readonly activeOnly: boolean }): Promise<Product[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': `APPPROD#${appId}`, ...(opts.activeOnly ? { ':active': true } : {}) },
      ...(opts.activeOnly ? { FilterExpression: 'active = :active' } : {}),
    });
    return items.map(productFromItem);
  }

  async update(id: string, patch: ProductPatch, atUs: Micros): Promise<Product | undefined> {
    const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
    const names: Record<string, string> = { '#updatedAtUs': 'updatedAtUs' };
    const values: Record<string, unknown> = { ':at': atUs };
    const sets = ['#updatedAtUs = :at'];
    entries.forEach(([field, value], i) => {
      names[`#f${i}`] = field;
      values[`:v${i}`] = value;
      sets.push(`#f${i} = :v${i}`);
    });
    const item = await updateIfMatched(this.db, {
      TableName: this.table,
      Key: productKey(id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
    return item && productFromItem(item);
  }
}
