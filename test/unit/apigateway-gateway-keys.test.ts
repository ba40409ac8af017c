import {
  APIGatewayClient,
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  FlushStageAuthorizersCacheCommand,
  GetApiKeysCommand,
  LimitExceededException,
  NotFoundException,
} from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY_QUOTA_MESSAGE, ApiGatewayKeyRegistry } from '../../functions/tenancy/adapters/api-gateway-key-registry';
import { DomainError } from '../../functions/kernel/domain/errors';

const gateway = mockClient(APIGatewayClient);
const KEY_ID = '6f1c9e52-3a8d-4b0e-9f7a-2c4d5e6f7a8b';
const NAME = `platform-key-${KEY_ID}`;
const STAGES = [
  { restApiId: 'abc123', stageName: 'prod' },
  { restApiId: 'def456', stageName: 'prod' },
];
const keys = () =>
  new ApiGatewayKeyRegistry(new APIGatewayClient({ region: 'eu-west-1' }), {
    usagePlans: { orgKey: 'plan-org', chatKey: 'plan-chat' },
    authorizerStages: STAGES,
  });
const meta = { $metadata: {} };

afterEach(() => gateway.reset());

/** Every command the adapter sent, in order, as [name, input]. */
const sent = () => gateway.calls().map((c) => [c.args[0].constructor.name, c.args[0].input]);

describe('ApiGatewayKeyRegistry.register', () => {
  it('creates an API key whose value is the platform key id and adds it to the usage plan of its class', async () => {
    gateway.on(CreateApiKeyCommand).resolves({ id: 'apikey-1' });
    gateway.on(CreateUsagePlanKeyCommand).resolves({});
    await keys().register({ id: KEY_ID, keyClass: 'chatKey' });
    expect(sent()).toEqual([
      ['CreateApiKeyCommand', { name: NAME, value: KEY_ID, enabled: true }],
      ['CreateUsagePlanKeyCommand', { usagePlanId: 'plan-chat', keyId: 'apikey-1', keyType: 'API_KEY' }],
    ]);
  });

  it('on a retry finds the key it made before (exact name) and accepts a usage-plan key that exists', async () => {
    gateway.on(CreateApiKeyCommand).rejects(new ConflictException({ message: 'exists', ...meta }));
    gateway.on(GetApiKeysCommand).resolves({
      items: [
        { id: 'other', name: `${NAME}-x` },
        { id: 'apikey-1', name: NAME },
      ],
    });
    gateway.on(CreateUsagePlanKeyCommand).rejects(new ConflictException({ message: 'in plan', ...meta }));
    await keys().register({ id: KEY_ID, keyClass: 'orgKey' });
    expect(sent()).toEqual([
      ['CreateApiKeyCommand', { name: NAME, value: KEY_ID, enabled: true }],
      ['GetApiKeysCommand', { nameQuery: NAME, includeValues: false, limit: 2 }],
      ['CreateUsagePlanKeyCommand', { usagePlanId: 'plan-org', keyId: 'apikey-1', keyType: 'API_KEY' }],
    ]);
  });

  it('turns the account limit of API keys into a 503-class domain error naming it', async () => {
    gateway.on(CreateApiKeyCommand).rejects(new LimitExceededException({ message: 'limit', ...meta }));
    const err = await keys()
      .register({ id: KEY_ID, keyClass: 'orgKey' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'unavailable', message: API_KEY_QUOTA_MESSAGE });
  });

  it('refuses a key class with no usage plan, and lets other failures through', async () => {
    await expect(keys().register({ id: KEY_ID, keyClass: 'acpKey' })).rejects.toThrow(/no usage plan configured for acpKey/);
    expect(sent()).toEqual([]);
    gateway.on(CreateApiKeyCommand).rejects(new Error('network down'));
    await expect(keys().register({ id: KEY_ID, keyClass: 'orgKey' })).rejects.toThrow('network down');
  });
});

describe('ApiGatewayKeyRegistry.unregister', () => {
  it('flushes every area’s authorizer cache first, then deletes the key', async () => {
    gateway.on(FlushStageAuthorizersCacheCommand).resolves({});
    gateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'apikey-1', name: NAME }] });
    gateway.on(DeleteApiKeyCommand).resolves({});
    await keys().unregister({ id: KEY_ID });
    expect(sent()).toEqual([
      ['FlushStageAuthorizersCacheCommand', { restApiId: 'abc123', stageName: 'prod' }],
      ['FlushStageAuthorizersCacheCommand', { restApiId: 'def456', stageName: 'prod' }],
      ['GetApiKeysCommand', { nameQuery: NAME, includeValues: false, limit: 2 }],
      ['DeleteApiKeyCommand', { apiKey: 'apikey-1' }],
    ]);
  });

  it('is fine when the key is already gone, and fails when a flush fails (the revoke is retried)', async () => {
    gateway.on(FlushStageAuthorizersCacheCommand).resolves({});
    gateway.on(GetApiKeysCommand).resolves({ items: [] });
    await keys().unregister({ id: KEY_ID });
    expect(sent().map(([n]) => n)).not.toContain('DeleteApiKeyCommand');

    gateway.reset();
    gateway.on(FlushStageAuthorizersCacheCommand).resolves({});
    gateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'apikey-1', name: NAME }] });
    gateway.on(DeleteApiKeyCommand).rejects(new NotFoundException({ message: 'gone', ...meta }));
    await keys().unregister({ id: KEY_ID });

    gateway.reset();
    gateway.on(FlushStageAuthorizersCacheCommand).rejects(new Error('throttled'));
    await expect(keys().unregister({ id: KEY_ID })).rejects.toThrow('throttled');
  });
});
