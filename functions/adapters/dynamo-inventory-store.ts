/** Inventory on the product item: one conditional decrement per reservation, so stock never goes below zero. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { InventoryStore } from '../ports/acp';

const key = (id: string) => ({ pk: `PRODUCT#${id}`, sk: 'PRODUCT' });

export class DynamoInventoryStore implements InventoryStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async reserve(productId: string, quantity: number): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(productId),
          // Unlimited products (inventory null) are not decremented; limited ones only while enough is left.
          UpdateExpression: 'SET inventory = inventory - :q',
          ConditionExpression: 'attribute_exists(pk) AND inventory >= :q',
          ExpressionAttributeValues: { ':q': quantity },
        }),
      );
      return true;
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
    // Either too few left, or no limit at all: tell them apart with a second condition.
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(productId),
          UpdateExpression: 'SET updatedAtUs = updatedAtUs',
          ConditionExpression: 'attribute_exists(pk) AND attribute_type(inventory, :null)',
          ExpressionAttributeValues: { ':null': 'NULL' },
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }

  async release(productId: string, quantity: number): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: key(productId),
          UpdateExpression: 'SET inventory = inventory + :q',
          ConditionExpression: 'attribute_exists(pk) AND attribute_type(inventory, :n)',
          ExpressionAttributeValues: { ':q': quantity, ':n': 'N' },
        }),
      );
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }
}
