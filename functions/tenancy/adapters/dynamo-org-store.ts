import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Org } from '../domain/org';
import type { OrgStore } from '../app/tenancy-ports';

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
