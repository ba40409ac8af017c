/**
 * Session variables live in one item of the session's partition (`SESSION#<id>` / `VARS`), so the
 * session's removal takes them with it. Each variable is its own attribute (`v_<name>`), so merging is
 * one UpdateItem with no read.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SessionVariableStore } from '../app/conversation-ports';

const key = (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: 'VARS' });
const PREFIX = 'v_';

function fromItem(item: Record<string, unknown> | undefined): Record<string, string> {
  // A variable may be named `__proto__` (the name pattern allows it): on a plain object that assignment
  // would set the prototype and the variable would be gone.
  const out = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries(item ?? {})) if (k.startsWith(PREFIX) && typeof v === 'string') out[k.slice(PREFIX.length)] = v;
  return out;
}

export class DynamoSessionVariableStore implements SessionVariableStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(sessionId: string): Promise<Record<string, string>> {
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: key(sessionId), ConsistentRead: true }));
    return fromItem(res.Item);
  }

  async merge(sessionId: string, variables: Readonly<Record<string, string>>): Promise<Record<string, string>> {
    const entries = Object.entries(variables);
    if (entries.length === 0) return this.get(sessionId);
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets = entries.map(([name, value], i) => {
      names[`#v${i}`] = PREFIX + name;
      values[`:v${i}`] = value;
      return `#v${i} = :v${i}`;
    });
    const res = await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: key(sessionId),
        UpdateExpression: `SET #type = :type, ${sets.join(', ')}`,
        ExpressionAttributeNames: { ...names, '#type': 'type' },
        ExpressionAttributeValues: { ...values, ':type': 'session-variables' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem(res.Attributes);
  }
}
