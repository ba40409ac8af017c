/**
 * Console sessions and login states on the platform's table (dynalite), with the local secret sealer:
 * the raw id and the tokens never reach storage, a read opens no sealed secret until the tokens are
 * asked for, expired items read as absent, and a login state is taken once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSecretSealer } from '../../functions/kernel/adapters/file-secret-sealer';
import { DynamoConsoleSessionStore } from '../../functions/tenancy/adapters/dynamo-console-session-store';
import type { SecretSealer } from '../../functions/kernel/app/outbound-webhook-ports';
import type { ConsoleSession, NewConsoleSession } from '../../functions/tenancy/app/identity-ports';
import { consoleSessionHash, newConsoleSessionId } from '../../functions/tenancy/domain/console-session';
import { startTestTable, type TestTable } from '../support/dynamo';

const NOW = 1_800_000_000;
const session: NewConsoleSession = {
  person: { issuer: 'http://localhost:3000/oidc', subject: 'owner', email: 'owner@demo.local' },
  tokens: { idToken: 'id-secret', accessToken: 'at-secret', refreshToken: 'rt-secret', expiresAtS: NOW + 600 },
  expiresAtS: NOW + 3600,
};

describe('DynamoConsoleSessionStore', () => {
  let t: TestTable;
  let store: DynamoConsoleSessionStore;
  beforeAll(async () => {
    t = await startTestTable();
    store = new DynamoConsoleSessionStore(t.db, t.table, new FileSecretSealer(join(mkdtempSync(join(tmpdir(), 'console-')), 'key')));
  });
  afterAll(() => t.stop());

  it('keeps a session under the hash of its id, with the tokens sealed and the TTL attribute set', async () => {
    const id = newConsoleSessionId();
    await store.create(id, session);
    const read = (await store.get(id, NOW)) as ConsoleSession;
    expect({ person: read.person, expiresAtS: read.expiresAtS, accessExpiresAtS: read.accessExpiresAtS }).toEqual({
      person: session.person,
      expiresAtS: NOW + 3600,
      accessExpiresAtS: NOW + 600,
    });
    expect(await read.tokens()).toEqual(session.tokens);
    const raw = await t.db.send(new GetCommand({ TableName: t.table, Key: { pk: `CONSOLE_SESSION#${consoleSessionHash(id)}`, sk: 'SESSION' } }));
    expect(raw.Item?.expiresAt).toBe(NOW + 3600);
    const text = JSON.stringify(raw.Item);
    for (const secret of [id, 'id-secret', 'at-secret', 'rt-secret']) expect(text).not.toContain(secret);
  });

  it('reads an expired or unknown session as absent, replaces tokens and deletes', async () => {
    const id = newConsoleSessionId();
    await store.create(id, session);
    expect(await store.get(id, NOW + 3600)).toBeUndefined();
    expect(await store.get(newConsoleSessionId(), NOW)).toBeUndefined();
    const fresh = { ...session.tokens, accessToken: 'at-2', expiresAtS: NOW + 1200 };
    await store.replaceTokens(id, fresh);
    const read = (await store.get(id, NOW))!;
    expect(read.accessExpiresAtS).toBe(NOW + 1200);
    expect(await read.tokens()).toEqual(fresh);
    await store.delete(id);
    expect(await store.get(id, NOW)).toBeUndefined();
    await expect(store.replaceTokens(id, fresh)).rejects.toThrow();
  });

  it('opens no sealed secret to read a session; tokens sealed under another purpose or key open as none, not as an error', async () => {
    const keyFile = join(mkdtempSync(join(tmpdir(), 'console-')), 'key');
    const webhookPurpose = new DynamoConsoleSessionStore(t.db, t.table, new FileSecretSealer(keyFile, 'webhook-signing-secret'));
    const sessionPurpose = new DynamoConsoleSessionStore(t.db, t.table, new FileSecretSealer(keyFile, 'console-session-tokens'));
    const id = newConsoleSessionId();
    await webhookPurpose.create(id, session);
    expect(await (await sessionPurpose.get(id, NOW))!.tokens()).toBeUndefined();
    const down: SecretSealer = { seal: async () => 'x', open: () => Promise.reject(new Error('KMS is down')) };
    const read = await new DynamoConsoleSessionStore(t.db, t.table, down).get(id, NOW);
    expect(read?.person).toEqual(session.person);
    await expect(read!.tokens()).rejects.toThrow('KMS is down');
  });

  it('reads a session written before the access expiry was kept beside the tokens as expiring at 0 (refreshed on first use)', async () => {
    const id = newConsoleSessionId();
    await store.create(id, session);
    await t.db.send(
      new UpdateCommand({
        TableName: t.table,
        Key: { pk: `CONSOLE_SESSION#${consoleSessionHash(id)}`, sk: 'SESSION' },
        UpdateExpression: 'REMOVE accessExpiresAt',
      }),
    );
    expect((await store.get(id, NOW))?.accessExpiresAtS).toBe(0);
  });

  it('takes a login state once, and not after it expired', async () => {
    const login = { state: 's-1', codeVerifier: 'v', nonce: 'n', returnPath: '/console/apps', expiresAtS: NOW + 600 };
    await store.put(login);
    expect(await store.take('s-1', NOW)).toEqual(login);
    expect(await store.take('s-1', NOW)).toBeUndefined();
    await store.put({ ...login, state: 's-2' });
    expect(await store.take('s-2', NOW + 600)).toBeUndefined();
  });
});
