import { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CryptoIds } from '../../functions/kernel/adapters/crypto-ids';
import { DynamoAppStore } from '../../functions/tenancy/adapters/dynamo-app-store';
import { DynamoCredentialStore } from '../../functions/tenancy/adapters/dynamo-credential-store';
import { DynamoOrgStore } from '../../functions/tenancy/adapters/dynamo-org-store';
import { issueCredential } from '../../functions/tenancy/app/issue-credential';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../../functions/kernel/http/api-gateway-contract';
import { LocalApiGateway } from '../../functions/local/local-api-gateway';
import type { LocalDeps } from '../../functions/local/local-wiring';
import { TestClock } from '../support/clock';
import { startTestTable, type TestTable } from '../support/dynamo';
import { failCommands } from '../support/export-truth';

/**
 * The local stand-in for API Gateway's authorizer cache (functions/local/local-api-gateway.ts), on the real
 * authorizer modules and credential store: keyed by key class and Authorization value, fresh for exactly
 * AUTHORIZER_CACHE_TTL_SECONDS, emptied by a revoke, and never holding a failure.
 */
describe('LocalApiGateway', () => {
  let t: TestTable;
  let deps: Parameters<typeof issueCredential>[0] & { logger: Logger };
  let nowMs = 0;
  let gateway: LocalApiGateway;
  let orgKey: string;
  let orgKeyId: string;
  /** The request as the local server hands it over: `authorization` is both the cache key and the event's header. */
  const event = (authorization: string, resource = '/api/v1/org/apps') =>
    ({
      httpMethod: 'GET',
      resource,
      path: resource,
      headers: { Authorization: authorization },
      multiValueHeaders: { Authorization: [authorization] },
      requestContext: {},
    }) as unknown as APIGatewayProxyEvent;
  const authorize = (keyClass: 'orgKey' | 'chatKey', authorization: string, resource?: string) =>
    gateway.authorize(keyClass, authorization, event(authorization, resource));
  /** Fails every lookup of a credential by hash until removed. */
  const storeDown = () =>
    failCommands(t, (command, input) => command === 'GetItemCommand' && String((input.Key as { pk?: string } | undefined)?.pk).startsWith('CRED#'));

  beforeAll(async () => {
    t = await startTestTable();
    const clock = new TestClock('2026-11-02T10:00:00Z', false);
    deps = {
      orgs: new DynamoOrgStore(t.db, t.table),
      apps: new DynamoAppStore(t.db, t.table),
      credentials: new DynamoCredentialStore(t.db, t.table),
      ids: new CryptoIds(),
      clock,
      apiKeys: { register: async () => undefined, unregister: async () => undefined, forgetAuthorizations: async () => undefined },
      logger: new Logger({ logLevel: 'SILENT' }),
    };
    const now = clock.nowUs();
    await deps.orgs.create({ id: 'org-lg', name: 'LG', plan: 'paid', createdAtUs: now, updatedAtUs: now });
    const issued = await issueCredential(deps, { kind: 'org', orgId: 'org-lg', scopes: ['apps:read'] });
    orgKey = issued.key;
    orgKeyId = issued.credential.id;
  });
  afterAll(() => t.stop());
  beforeEach(async () => {
    nowMs = 1_000_000;
    gateway = new LocalApiGateway(() => nowMs);
    await gateway.load(deps as unknown as LocalDeps);
  });

  it('answers from the cache until exactly the TTL has passed, then asks the authorizer again', async () => {
    expect(AUTHORIZER_CACHE_TTL_SECONDS).toBe(300);
    const first = await authorize('orgKey', `Bearer ${orgKey}`);
    expect(first).toEqual({
      allowed: true,
      principalId: orgKeyId,
      context: { keyClass: 'orgKey', keyId: orgKeyId, orgId: 'org-lg', appId: '', scopes: 'apps:read', expiresAtUs: '' },
    });
    const fault = storeDown();
    try {
      nowMs += 299_999;
      expect(await authorize('orgKey', `Bearer ${orgKey}`)).toEqual(first);
      expect(fault.fired).toBe(0);
      nowMs += 1;
      await expect(authorize('orgKey', `Bearer ${orgKey}`)).rejects.toThrow('injected persistent fault #1');
    } finally {
      fault.remove();
    }
  });

  it('keys the cache by the exact Authorization value and by key class', async () => {
    await authorize('orgKey', `Bearer ${orgKey}`);
    const fault = storeDown();
    try {
      await expect(authorize('orgKey', `bearer ${orgKey}`)).rejects.toThrow('injected persistent fault #1');
      await expect(authorize('chatKey', `Bearer ${orgKey}`)).resolves.toEqual({
        allowed: false,
        context: { errorCode: 'unauthorized', errorMessage: 'Invalid API key' },
      });
      expect(fault.fired).toBe(1);
    } finally {
      fault.remove();
    }
  });

  it('caches a denial too, until a revoke (unregister) empties the cache', async () => {
    const unknown = `Bearer svc_org_${'U'.repeat(40)}`;
    expect(await authorize('orgKey', unknown)).toEqual({ allowed: false, context: { errorCode: 'unauthorized', errorMessage: 'Invalid API key' } });
    await authorize('orgKey', `Bearer ${orgKey}`);
    const fault = storeDown();
    try {
      expect((await authorize('orgKey', unknown)).allowed).toBe(false);
      expect((await authorize('orgKey', `Bearer ${orgKey}`)).allowed).toBe(true);
      expect(fault.fired).toBe(0);
      await gateway.unregister();
      await expect(authorize('orgKey', unknown)).rejects.toThrow('injected persistent fault #1');
      await expect(authorize('orgKey', `Bearer ${orgKey}`)).rejects.toThrow('injected persistent fault #2');
    } finally {
      fault.remove();
    }
  });

  it('never caches a failure: the next request asks the authorizer again', async () => {
    const fault = storeDown();
    try {
      await expect(authorize('orgKey', `Bearer ${orgKey}`)).rejects.toThrow('injected persistent fault #1');
    } finally {
      fault.remove();
    }
    expect((await authorize('orgKey', `Bearer ${orgKey}`)).allowed).toBe(true);
  });

  it('passes the route to the authorizer as a method ARN and never depends on it', async () => {
    const a = await authorize('orgKey', `Bearer ${orgKey}`);
    const fault = storeDown();
    try {
      expect(await authorize('orgKey', `Bearer ${orgKey}`, '/api/v1/org/usage')).toEqual(a);
    } finally {
      fault.remove();
    }
  });
});
