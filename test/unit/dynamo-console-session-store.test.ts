/**
 * Console sessions and login states on the platform's table (dynalite), with the local secret sealer:
 * the raw id and the tokens never reach storage, expired items read as absent, and a login state is
 * taken once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSecretSealer } from '../../functions/kernel/adapters/file-secret-sealer';
import { DynamoConsoleSessionStore } from '../../functions/tenancy/adapters/dynamo-console-session-store';
import type { ConsoleSession } from '../../functions/tenancy/app/identity-ports';
import { consoleSessionHash, newConsoleSessionId } from '../../functions/tenancy/domain/console-session';
import { startTestTable, type TestTable } from '../support/dynamo';

const NOW = 1_800_000_000;
const session: ConsoleSession = {
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
    expect(await store.get(id, NOW)).toEqual(session);
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
    const fresh = { ...session.tokens, accessToken: 'at-2' };
    await store.replaceTokens(id, fresh);
    expect((await store.get(id, NOW))?.tokens).toEqual(fresh);
    await store.delete(id);
    expect(await store.get(id, NOW)).toBeUndefined();
    await expect(store.replaceTokens(id, fresh)).rejects.toThrow();
  });

  it('reads a session whose tokens were sealed under another purpose or key as absent, not as an error', async () => {
    const keyFile = join(mkdtempSync(join(tmpdir(), 'console-')), 'key');
    const webhookPurpose = new DynamoConsoleSessionStore(t.db, t.table, new FileSecretSealer(keyFile, 'webhook-signing-secret'));
    const sessionPurpose = new DynamoConsoleSessionStore(t.db, t.table, new FileSecretSealer(keyFile, 'console-session-tokens'));
    const id = newConsoleSessionId();
    await webhookPurpose.create(id, session);
    expect(await sessionPurpose.get(id, NOW)).toBeUndefined();
    await expect(
      new DynamoConsoleSessionStore(t.db, t.table, { seal: async () => 'x', open: () => Promise.reject(new Error('KMS is down')) }).get(id, NOW),
    ).rejects.toThrow('KMS is down');
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
