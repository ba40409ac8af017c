/**
 * Console sessions and login states in the platform's one table. Keys: `CONSOLE_SESSION#<sha256 of
 * the id>` / `SESSION` and `CONSOLE_LOGIN#<state>` / `LOGIN`; both carry the table's TTL attribute
 * (`expiresAt`, epoch seconds) and are checked against it on read, since TTL deletes late (and dynalite
 * never). The tokens are sealed with the secret sealer, bound to the session's hash, and opened only when
 * asked for; the access token's expiry (`accessExpiresAt`, no secret) is kept beside them in the clear.
 * An item written before that attribute existed reads as expiring at 0: its first use refreshes it.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SecretSealer } from '../../kernel/app/outbound-webhook-ports';
import { TABLE_DESIGN } from '../../kernel/adapters/table-design';
import type { ConsoleSession, ConsoleSessionStore, LoginState, LoginStateStore, NewConsoleSession, TokenSet } from '../app/identity-ports';
import { consoleSessionHash } from '../domain/console-session';
import { SealedSecretRejected } from '../../kernel/app/outbound-webhook-ports';

const TTL = TABLE_DESIGN.ttlAttribute;
const sessionKey = (hash: string) => ({ pk: `CONSOLE_SESSION#${hash}`, sk: 'SESSION' });
const loginKey = (state: string) => ({ pk: `CONSOLE_LOGIN#${state}`, sk: 'LOGIN' });

export class DynamoConsoleSessionStore implements ConsoleSessionStore, LoginStateStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly sealer: SecretSealer,
  ) {}

  private seal(hash: string, tokens: TokenSet): Promise<string> {
    return this.sealer.seal(JSON.stringify(tokens), { consoleSession: hash });
  }

  async create(sessionId: string, session: NewConsoleSession): Promise<void> {
    const hash = consoleSessionHash(sessionId);
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...sessionKey(hash),
          type: 'console-session',
          person: session.person,
          sealedTokens: await this.seal(hash, session.tokens),
          accessExpiresAt: session.tokens.expiresAtS,
          [TTL]: session.expiresAtS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(sessionId: string, nowS: number): Promise<ConsoleSession | undefined> {
    const hash = consoleSessionHash(sessionId);
    const res = await this.db.send(new GetCommand({ TableName: this.table, Key: sessionKey(hash), ConsistentRead: true }));
    const item = res.Item;
    if (!item || typeof item[TTL] !== 'number' || item[TTL] <= nowS) return undefined;
    const sealed = item.sealedTokens as string;
    return {
      person: item.person as ConsoleSession['person'],
      accessExpiresAtS: typeof item.accessExpiresAt === 'number' ? item.accessExpiresAt : 0,
      expiresAtS: item[TTL],
      tokens: () => this.open(hash, sealed),
    };
  }

  private async open(hash: string, sealed: string): Promise<TokenSet | undefined> {
    try {
      return JSON.parse(await this.sealer.open(sealed, { consoleSession: hash })) as TokenSet;
    } catch (err) {
      // Tokens sealed under another key or purpose (an older release) cannot be used: the session ends at its next refresh.
      if (err instanceof SealedSecretRejected) return undefined;
      throw err;
    }
  }

  async replaceTokens(sessionId: string, tokens: TokenSet): Promise<void> {
    const hash = consoleSessionHash(sessionId);
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: sessionKey(hash),
        UpdateExpression: 'SET sealedTokens = :t, accessExpiresAt = :e',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':t': await this.seal(hash, tokens), ':e': tokens.expiresAtS },
      }),
    );
  }

  async delete(sessionId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.table, Key: sessionKey(consoleSessionHash(sessionId)) }));
  }

  async put(login: LoginState): Promise<void> {
    const { state, codeVerifier, nonce, returnPath, expiresAtS } = login;
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { ...loginKey(state), type: 'console-login', codeVerifier, nonce, returnPath, [TTL]: expiresAtS },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async take(state: string, nowS: number): Promise<LoginState | undefined> {
    const res = await this.db.send(new DeleteCommand({ TableName: this.table, Key: loginKey(state), ReturnValues: 'ALL_OLD' }));
    const item = res.Attributes;
    if (!item || typeof item[TTL] !== 'number' || item[TTL] <= nowS) return undefined;
    return { state, codeVerifier: item.codeVerifier, nonce: item.nonce, returnPath: item.returnPath, expiresAtS: item[TTL] };
  }
}
