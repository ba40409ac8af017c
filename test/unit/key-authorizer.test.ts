import { describe, expect, it } from 'vitest';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { Logger } from '@aws-lambda-powertools/logger';
import { createKeyAuthorizer } from '../../functions/tenancy/authorizers/key-authorizer';
import { CREDENTIAL_PREFIX, hashCredential, type StoredCredential } from '../../functions/tenancy/domain/credentials';
import { grantFromContext, grantToContext, type KeyGrant } from '../../functions/tenancy/domain/key-grant';
import {
  gatewayAnswers,
  gatewayTemplate,
  renderGatewayAnswer,
  usagePlanThrottle,
  type GatewayResponseType,
} from '../../functions/kernel/http/api-gateway-contract';
import type { CredentialStore } from '../../functions/tenancy/app/tenancy-ports';

const NOW_US = Date.parse('2026-11-02T10:00:00Z') * 1000;
const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/api/v1/org/apps';
const ORG_KEY = `${CREDENTIAL_PREFIX.org}${'a'.repeat(40)}`;
const ACP_KEY = `${CREDENTIAL_PREFIX.acp}${'b'.repeat(40)}`;

function credential(over: Partial<StoredCredential>): StoredCredential {
  return {
    id: 'key-1',
    kind: 'org',
    hash: hashCredential(ORG_KEY),
    orgId: 'org-1',
    scopes: ['apps:read'],
    displayPrefix: 'svc_org_aaaa',
    createdAtUs: NOW_US - 1,
    ...over,
  };
}

function authorizerWith(creds: StoredCredential[] | Error, keyClass: 'orgKey' | 'acpKey' = 'orgKey') {
  const credentials = {
    findByHash: async (hash: string) => {
      if (creds instanceof Error) throw creds;
      return creds.find((c) => c.hash === hash);
    },
  } as unknown as CredentialStore;
  return createKeyAuthorizer(
    { credentials, clock: { nowUs: () => NOW_US }, logger: new Logger({ logLevel: 'SILENT' }) },
    keyClass,
    keyClass === 'orgKey' ? 'export' : 'acp',
  );
}

const event = (authorization?: string) =>
  ({ type: 'REQUEST', methodArn: METHOD_ARN, headers: authorization ? { Authorization: authorization } : {} }) as unknown as APIGatewayRequestAuthorizerEvent;
const policy = (effect: string) => ({
  Version: '2012-10-17',
  Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*' }],
});

describe('the key authorizer', () => {
  it('allows the whole API stage for a valid key, with the grant as context and the key id as usage-plan key', async () => {
    const result = await authorizerWith([credential({ expiresAtUs: NOW_US + 5 })])(event(`Bearer ${ORG_KEY}`));
    expect(result).toEqual({
      principalId: 'key-1',
      policyDocument: policy('Allow'),
      context: { keyClass: 'orgKey', keyId: 'key-1', orgId: 'org-1', appId: '', scopes: 'apps:read', expiresAtUs: String(NOW_US + 5) },
      usageIdentifierKey: 'key-1',
    });
  });

  it.each([
    ['no bearer', undefined, [], 'unauthorized', 'Missing API key: send Authorization: Bearer <ORG_API_KEY>'],
    ['another key class', `Bearer ${ACP_KEY}`, [], 'unauthorized', 'Invalid API key'],
    ['an unknown key', `Bearer ${ORG_KEY}`, [], 'unauthorized', 'Invalid API key'],
    ['a revoked key', `Bearer ${ORG_KEY}`, [credential({ revokedAtUs: NOW_US - 1 })], 'unauthorized', 'Invalid API key'],
    ['an expired key (area A shows unauthorized)', `Bearer ${ORG_KEY}`, [credential({ expiresAtUs: NOW_US })], 'unauthorized', 'API key has expired'],
  ] as const)('denies %s with the area code and message', async (_, header, creds, code, message) => {
    const result = await authorizerWith([...creds])(event(header));
    expect(result).toEqual({ principalId: 'refused', policyDocument: policy('Deny'), context: { errorCode: code, errorMessage: message } });
  });

  it('keeps code expired on the ACP area', async () => {
    const acp = credential({ kind: 'acp', hash: hashCredential(ACP_KEY), appId: 'app-1', scopes: [], expiresAtUs: NOW_US - 1 });
    const result = await authorizerWith([acp], 'acpKey')(event(`Bearer ${ACP_KEY}`));
    expect(result.context).toEqual({ errorCode: 'expired', errorMessage: 'API key has expired' });
  });

  it('throws on a store outage instead of returning a Deny that the gateway would cache', async () => {
    await expect(authorizerWith(new Error('table unreachable'))(event(`Bearer ${ORG_KEY}`))).rejects.toThrow('table unreachable');
  });

  it('carries grants through the context and rejects what is not one', () => {
    const grants: KeyGrant[] = [
      { keyClass: 'orgKey', keyId: 'k', orgId: 'o', scopes: ['apps:read', 'usage:read'] },
      { keyClass: 'chatKey', keyId: 'k', orgId: 'o', appId: 'a', scopes: [], expiresAtUs: 123 },
    ];
    for (const g of grants) expect(grantFromContext(grantToContext(g))).toEqual(g);
    for (const junk of [null, 'x', {}, { keyClass: 'adminKey', keyId: 'k', orgId: 'o' }, { keyClass: 'orgKey', orgId: 'o' }])
      expect(grantFromContext(junk)).toBeUndefined();
  });
});

describe('the gateway contract', () => {
  it('sets each usage plan just above the exact limit, never below what a fixed window admits', () => {
    expect(usagePlanThrottle('orgKey')).toEqual({ rateLimit: 2.5, burstLimit: 240 });
    expect(usagePlanThrottle('chatKey')).toEqual({ rateLimit: 2.5, burstLimit: 240 });
    expect(usagePlanThrottle('acpKey')).toEqual({ rateLimit: 1.25, burstLimit: 120 });
  });

  it.each(['export', 'chat', 'acp', 'releaseNotes', 'admin'] as const)('%s: the VTL template renders the very body the local server sends', (area) => {
    const answers = gatewayAnswers(area === 'chat' ? 'chatKey' : area === 'acp' ? 'acpKey' : 'orgKey');
    for (const type of Object.keys(answers) as GatewayResponseType[]) {
      const answer = answers[type];
      const authorizer = { errorCode: area === 'acp' ? 'expired' : 'unauthorized', errorMessage: 'API key has expired' };
      const rendered = gatewayTemplate(area, answer)
        .replace('$context.authorizer.errorCode', authorizer.errorCode)
        .replace('$context.authorizer.errorMessage', authorizer.errorMessage)
        .replace('$context.error.messageString', JSON.stringify('Invalid request body'));
      expect(JSON.parse(rendered), `${area} ${type}`).toEqual(renderGatewayAnswer(area, answer, { authorizer, gatewayMessage: 'Invalid request body' }).body);
    }
  });
});
