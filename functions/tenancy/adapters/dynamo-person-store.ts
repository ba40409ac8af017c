/** People who signed in, one item each in their own partition (`PERSON#<userKey>`), beside their membership pointers. */
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Person } from '../domain/members';
import type { PersonStore } from '../app/members-ports';
import { sendConditional } from '../../kernel/adapters/dynamo-batch';
import { definedFields } from '../../kernel/adapters/dynamo-batch';

export const personPk = (userKey: string) => `PERSON#${userKey}`;
const key = (userKey: string) => ({ pk: personPk(userKey), sk: 'PERSON' });
const FIELDS = ['userKey', 'issuer', 'subject', 'email', 'firstSignInAtUs', 'personalOrgId', 'settled'] as const;

export class DynamoPersonStore implements PersonStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(userKey: string): Promise<Person | undefined> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(userKey), ConsistentRead: true }));
    return res.Item ? definedFields<Person>(res.Item, FIELDS) : undefined;
  }

  claim(person: Person): Promise<boolean> {
    return sendConditional(
      this.db,
      new PutCommand({ TableName: this.table, Item: { ...key(person.userKey), type: 'person', ...person }, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
  }

  async settle(userKey: string): Promise<void> {
    await sendConditional(
      this.db,
      new UpdateCommand({
        TableName: this.table,
        Key: key(userKey),
        UpdateExpression: 'SET settled = :t',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':t': true },
      }),
    );
  }
}
