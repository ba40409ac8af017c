import { Logger } from '@aws-lambda-powertools/logger';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CryptoIds } from '../../functions/kernel/adapters/crypto-ids';
import { DynamoAppStore } from '../../functions/tenancy/adapters/dynamo-app-store';
import { DynamoCredentialStore } from '../../functions/tenancy/adapters/dynamo-credential-store';
import { DynamoOrgStore } from '../../functions/tenancy/adapters/dynamo-org-store';
import { issueCredential, revokeCredential } from '../../functions/tenancy/app/issue-credential';
import { createApp } from '../../functions/tenancy/app/manage-apps';
import { createHandler as acpAuthorizer } from '../../functions/tenancy/authorizers/acp-key-authorizer.handler';
import { createHandler as chatAuthorizer } from '../../functions/tenancy/authorizers/chat-key-authorizer.handler';
import type { AuthorizerDeps, KeyAuthorizer } from '../../functions/tenancy/authorizers/key-authorizer';
import { createHandler as orgAuthorizer } from '../../functions/tenancy/authorizers/org-key-authorizer.handler';
import { CREDENTIAL_PREFIX } from '../../functions/tenancy/domain/credentials';
import type { KeyClass } from '../../functions/kernel/domain/auth-messages';
import { grantFromContext, grantToContext, type KeyGrant } from '../../functions/tenancy/domain/key-grant';
import type { ApiKeyRegistry } from '../../functions/tenancy/app/tenancy-ports';
import { TestClock } from '../support/clock';
import { startTestTable, type TestTable } from '../support/dynamo';
import { failCommands } from '../support/export-truth';

/**
 * The three key authorizers (the Lambda modules' factories) on the production ports: keys issued and
 * revoked by the admin use cases into the embedded DynamoDB, looked up by the real credential store.
 */
const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/api/v1/org/apps';
const STAGE = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*';
const policy = (Effect: 'Allow' | 'Deny') => ({ Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect, Resource: STAGE }] });
const event = (headers: Record<string, string> = {}) =>
  ({
    type: 'REQUEST',
    methodArn: METHOD_ARN,
    resource: '/api/v1/org/apps',
    path: '/api/v1/org/apps',
    httpMethod: 'GET',
    headers,
  }) as unknown as APIGatewayRequestAuthorizerEvent;
const bearer = (key: string) => event({ Authorization: `Bearer ${key}` });
const deny = (errorCode: string, errorMessage: string) => ({ principalId: 'refused', policyDocument: policy('Deny'), context: { errorCode, errorMessage } });

describe('the key authorizers on the embedded DynamoDB', () => {
  let t: TestTable;
  const clock = new TestClock('2026-11-02T10:00:00Z', false);
  const registered: { id: string; keyClass: KeyClass }[] = [];
  const unregistered: string[] = [];
  const apiKeys: ApiKeyRegistry = {
    register: async (k) => void registered.push({ ...k }),
    unregister: async (k) => void unregistered.push(k.id),
    forgetAuthorizations: async () => undefined,
  };
  let deps: Parameters<typeof issueCredential>[0] & AuthorizerDeps;
  let authorizer: Record<KeyClass, KeyAuthorizer>;
  let orgId: string;
  let appId: string;

  beforeAll(async () => {
    t = await startTestTable();
    deps = {
      orgs: new DynamoOrgStore(t.db, t.table),
      apps: new DynamoAppStore(t.db, t.table),
      credentials: new DynamoCredentialStore(t.db, t.table),
      ids: new CryptoIds(),
      clock,
      apiKeys,
      logger: new Logger({ logLevel: 'SILENT' }),
    };
    authorizer = { orgKey: orgAuthorizer(deps), chatKey: chatAuthorizer(deps), acpKey: acpAuthorizer(deps) };
    const now = clock.nowUs();
    orgId = 'org-authz';
    await deps.orgs.create({ id: orgId, name: 'Authz', plan: 'paid', createdAtUs: now, updatedAtUs: now });
    appId = (await createApp(deps, { orgId, name: 'Authz App' })).id;
  });
  afterAll(() => t.stop());

  it('allows a valid org key on the whole stage, with the grant as string context and the key id as usage key', async () => {
    const issued = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read', 'usage:read'] });
    const id = issued.credential.id;
    expect(registered).toContainEqual({ id, keyClass: 'orgKey' });
    const result = await authorizer.orgKey(bearer(issued.key));
    expect(result).toEqual({
      principalId: id,
      policyDocument: policy('Allow'),
      context: { keyClass: 'orgKey', keyId: id, orgId, appId: '', scopes: 'apps:read,usage:read', expiresAtUs: '' },
      usageIdentifierKey: id,
    });
    expect(result.context).toEqual(grantToContext({ keyClass: 'orgKey', keyId: id, orgId, scopes: ['apps:read', 'usage:read'] }));
    for (const v of Object.values(result.context!)) expect(typeof v).toBe('string');
    // Header names arrive as the client sent them.
    expect(await authorizer.orgKey(event({ authorization: `Bearer ${issued.key}` }))).toEqual(result);
  });

  it('allows chat and ACP keys with their app and expiry in the context', async () => {
    const expiresAtUs = clock.nowUs() + 3_600_000_000;
    const chat = await issueCredential(deps, { kind: 'chat', appId, expiresAtUs });
    const acp = await issueCredential(deps, { kind: 'acp', appId });
    expect(await authorizer.chatKey(bearer(chat.key))).toEqual({
      principalId: chat.credential.id,
      policyDocument: policy('Allow'),
      context: { keyClass: 'chatKey', keyId: chat.credential.id, orgId, appId, scopes: '', expiresAtUs: String(expiresAtUs) },
      usageIdentifierKey: chat.credential.id,
    });
    const acpResult = await authorizer.acpKey(bearer(acp.key));
    expect(acpResult.context).toEqual({ keyClass: 'acpKey', keyId: acp.credential.id, orgId, appId, scopes: '', expiresAtUs: '' });
    expect(grantFromContext(acpResult.context)).toEqual({ keyClass: 'acpKey', keyId: acp.credential.id, orgId, appId, scopes: [] });
  });

  it('denies a missing or non-Bearer header with the missing-key message of its class', async () => {
    expect(await authorizer.orgKey(event())).toEqual(deny('unauthorized', 'Missing API key: send Authorization: Bearer <ORG_API_KEY>'));
    expect(await authorizer.orgKey(event({ Authorization: 'Basic dXNlcjpwYXNz' }))).toEqual(
      deny('unauthorized', 'Missing API key: send Authorization: Bearer <ORG_API_KEY>'),
    );
    expect(await authorizer.chatKey(event({ Authorization: 'Bearer ' }))).toEqual(
      deny('unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>'),
    );
    expect(await authorizer.acpKey(event())).toEqual(deny('unauthorized', 'Missing API key: send Authorization: Bearer <ACP_API_KEY>'));
  });

  it('denies a key of another class, even a live one', async () => {
    const chat = await issueCredential(deps, { kind: 'chat', appId });
    const org = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read'] });
    expect(await authorizer.orgKey(bearer(chat.key))).toEqual(deny('unauthorized', 'Invalid API key'));
    expect(await authorizer.acpKey(bearer(chat.key))).toEqual(deny('unauthorized', 'Invalid API key'));
    expect(await authorizer.chatKey(bearer(org.key))).toEqual(deny('unauthorized', 'Invalid API key'));
    expect((await authorizer.chatKey(bearer(chat.key))).policyDocument).toEqual(policy('Allow'));
  });

  it('denies an unknown key of the right shape', async () => {
    expect(await authorizer.orgKey(bearer(`${CREDENTIAL_PREFIX.org}${'Z'.repeat(40)}`))).toEqual(deny('unauthorized', 'Invalid API key'));
    expect(await authorizer.acpKey(bearer(`${CREDENTIAL_PREFIX.acp}${'Z'.repeat(40)}`))).toEqual(deny('unauthorized', 'Invalid API key'));
  });

  it('denies a revoked key as invalid (revocation also reaches the gateway)', async () => {
    const issued = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read'] });
    expect((await authorizer.orgKey(bearer(issued.key))).policyDocument).toEqual(policy('Allow'));
    await revokeCredential(deps, { keyId: issued.credential.id });
    expect(unregistered).toContain(issued.credential.id);
    expect(await authorizer.orgKey(bearer(issued.key))).toEqual(deny('unauthorized', 'Invalid API key'));
  });

  it('denies an expired key: code unauthorized on the export and chat APIs, expired on the ACP API', async () => {
    const expiresAtUs = clock.nowUs() + 60_000_000;
    const org = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read'], expiresAtUs });
    const chat = await issueCredential(deps, { kind: 'chat', appId, expiresAtUs });
    const acp = await issueCredential(deps, { kind: 'acp', appId, expiresAtUs });
    expect((await authorizer.acpKey(bearer(acp.key))).policyDocument).toEqual(policy('Allow'));
    clock.advance(61_000);
    expect(await authorizer.orgKey(bearer(org.key))).toEqual(deny('unauthorized', 'API key has expired'));
    expect(await authorizer.chatKey(bearer(chat.key))).toEqual(deny('unauthorized', 'API key has expired'));
    expect(await authorizer.acpKey(bearer(acp.key))).toEqual(deny('expired', 'API key has expired'));
  });

  it('throws, instead of denying, while the credential store is unreachable; the key works once it is back', async () => {
    const issued = await issueCredential(deps, { kind: 'org', orgId, scopes: ['apps:read'] });
    // The document client's commands reach the middleware as GetItemCommand, with the key not yet marshalled.
    const fault = failCommands(
      t,
      (command, input) => command === 'GetItemCommand' && String((input.Key as { pk?: string } | undefined)?.pk).startsWith('CRED#'),
    );
    try {
      await expect(authorizer.orgKey(bearer(issued.key))).rejects.toThrow('injected persistent fault #1');
      await expect(authorizer.acpKey(bearer(`${CREDENTIAL_PREFIX.acp}${'Q'.repeat(40)}`))).rejects.toThrow('injected persistent fault #2');
      // A verdict that needs no lookup is still given.
      expect(await authorizer.orgKey(event())).toEqual(deny('unauthorized', 'Missing API key: send Authorization: Bearer <ORG_API_KEY>'));
      expect(fault.fired).toBe(2);
    } finally {
      fault.remove();
    }
    expect((await authorizer.orgKey(bearer(issued.key))).policyDocument).toEqual(policy('Allow'));
  });

  it('throws when the credentials port rejects (a port, not only DynamoDB)', async () => {
    const broken = orgAuthorizer({ ...deps, credentials: { ...deps.credentials, findByHash: () => Promise.reject(new Error('port down')) } });
    await expect(broken(bearer(`${CREDENTIAL_PREFIX.org}${'a'.repeat(40)}`))).rejects.toThrow('port down');
  });
});

describe('grantToContext / grantFromContext', () => {
  it.each<[string, KeyGrant]>([
    ['an org key without expiry', { keyClass: 'orgKey', keyId: 'k1', orgId: 'o1', scopes: ['apps:read', 'transcripts:read', 'usage:read', 'tombstones:read'] }],
    ['an org key with expiry', { keyClass: 'orgKey', keyId: 'k2', orgId: 'o1', scopes: ['usage:read'], expiresAtUs: 1_793_613_600_000_000 }],
    ['a chat key without expiry', { keyClass: 'chatKey', keyId: 'k3', orgId: 'o1', appId: 'a1', scopes: [] }],
    ['an ACP key with expiry', { keyClass: 'acpKey', keyId: 'k4', orgId: 'o1', appId: 'a1', scopes: [], expiresAtUs: 1 }],
  ])('round-trips %s through flat string context', (_, grant) => {
    const context = grantToContext(grant);
    for (const v of Object.values(context)) expect(typeof v).toBe('string');
    expect(grantFromContext(context)).toEqual(grant);
    // API Gateway adds principalId (and integrationLatency) next to the authorizer's own keys.
    expect(grantFromContext({ ...context, principalId: grant.keyId, integrationLatency: 12 })).toEqual(grant);
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'orgKey'],
    ['an empty object', {}],
    ['no keyId', { keyClass: 'orgKey', orgId: 'o1', scopes: 'apps:read' }],
    ['an empty keyId', { keyClass: 'orgKey', keyId: '', orgId: 'o1' }],
    ['no orgId', { keyClass: 'chatKey', keyId: 'k1', appId: 'a1' }],
    ['an unknown keyClass', { keyClass: 'adminKey', keyId: 'k1', orgId: 'o1' }],
    ['a deny context', { errorCode: 'unauthorized', errorMessage: 'Invalid API key' }],
  ])('rejects %s', (_, junk) => {
    expect(grantFromContext(junk)).toBeUndefined();
  });

  it('keeps only known scopes', () => {
    expect(grantFromContext({ keyClass: 'orgKey', keyId: 'k1', orgId: 'o1', scopes: 'apps:read,admin:write,,usage:read' })).toEqual({
      keyClass: 'orgKey',
      keyId: 'k1',
      orgId: 'o1',
      scopes: ['apps:read', 'usage:read'],
    });
  });
});
