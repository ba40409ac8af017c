/**
 * Inventory on the product item. A hold is the string `<holder>:<quantity>` in the product's `holds`
 * string set, added in the same conditional UpdateItem that takes the units, so stock never goes below
 * zero and what a holder took is always known (no transaction needed: dynalite has none). Every call
 * is idempotent for one (holder, quantity). Units given back after a sale (a return, a cancellation)
 * are recorded the same way in `restocks`, once per key.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { HoldResult, InventoryStore } from '../app/acp-ports';
import { sendConditional } from '../../kernel/adapters/dynamo-batch';

const key = (id: string) => ({ pk: `PRODUCT#${id}`, sk: 'PRODUCT' });
const entry = (holder: string, quantity: number) => `${holder}:${quantity}`;

export class DynamoInventoryStore implements InventoryStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  private update(productId: string, expression: string, condition: string, values: Record<string, unknown>): Promise<boolean> {
    return sendConditional(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: key(productId),
        UpdateExpression: expression,
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
      }),
    );
  }

  async hold(productId: string, holder: string, quantity: number): Promise<HoldResult> {
    const e = entry(holder, quantity);
    const took = await this.update(
      productId,
      'SET inventory = inventory - :q ADD holds :e',
      'attribute_exists(pk) AND inventory >= :q AND NOT contains(holds, :h)',
      { ':q': quantity, ':e': new Set([e]), ':h': e },
    );
    if (took) return 'held';
    // Already held by this holder (a retried step), no limit at all, or too few left: read which.
    const res = await this.db.send(
      new GetCommand({ TableName: this.table, Key: key(productId), ConsistentRead: true, ProjectionExpression: 'inventory, holds' }),
    );
    const holds = res.Item?.holds as Set<string> | undefined;
    if (holds?.has(e)) return 'held';
    if (res.Item && res.Item.inventory === null) return 'unlimited';
    return 'out_of_stock';
  }

  async release(productId: string, holder: string, quantity: number): Promise<void> {
    const e = entry(holder, quantity);
    const values = { ':q': quantity, ':e': new Set([e]), ':h': e, ':n': 'N' };
    if (await this.update(productId, 'SET inventory = inventory + :q DELETE holds :e', 'contains(holds, :h) AND attribute_type(inventory, :n)', values)) return;
    // The product became unlimited meanwhile: only the hold goes.
    await this.commit(productId, holder, quantity);
  }

  async restock(productId: string, restockKey: string, quantity: number): Promise<void> {
    // The key joins the product's `restocks` set in the same write that adds the units: once per key.
    const e = entry(restockKey, quantity);
    await this.update(productId, 'SET inventory = inventory + :q ADD restocks :e', 'attribute_type(inventory, :n) AND NOT contains(restocks, :h)', {
      ':q': quantity,
      ':e': new Set([e]),
      ':h': e,
      ':n': 'N',
    });
  }

  async commit(productId: string, holder: string, quantity: number): Promise<void> {
    const e = entry(holder, quantity);
    await this.update(productId, 'DELETE holds :e', 'contains(holds, :h)', { ':e': new Set([e]), ':h': e });
  }
}
