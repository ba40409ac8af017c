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
  TooManyRequestsException,
} from '@aws-sdk/client-api-gateway';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY_QUOTA_MESSAGE, ApiGatewayKeyRegistry, type ApiGatewayKeysConfig } from '../../functions/tenancy/adapters/api-gateway-key-registry';
import { DomainError } from '../../functions/kernel/domain/errors';

/**
 * The exact command sequence the gateway-keys adapter sends in every branch: what a retry, a missing
 * key, a quota or a failing call leaves sent and unsent (test/unit/apigateway-gateway-keys.test.ts
 * covers the happy paths).
 */
const gateway = mockClient(APIGatewayClient);
const KEY_ID = '0b6e1d2c-7f3a-4c59-8e21-93a4b5c6d7e8';
const NAME = `platform-key-${KEY_ID}`;
const meta = { $metadata: {} };
const FULL: ApiGatewayKeysConfig = {
  usagePlans: { orgKey: 'plan-org', chatKey: 'plan-chat', acpKey: 'plan-acp' },
  authorizerStages: [
    { restApiId: 'exp111', stageName: 'prod' },
    { restApiId: 'chat222', stageName: 'prod' },
    { restApiId: 'acp333', stageName: 'live' },
  ],
};
const keys = (config: ApiGatewayKeysConfig = FULL) => new ApiGatewayKeyRegistry(new APIGatewayClient({ region: 'eu-west-1' }), config);
const sent = () => gateway.calls().map((c) => [c.args[0].constructor.name, c.args[0].input]);
const FIND = ['GetApiKeysCommand', { nameQuery: NAME, includeValues: false, limit: 2 }] as const;
const FLUSHES = [
  ['FlushStageAuthorizersCacheCommand', { restApiId: 'exp111', stageName: 'prod' }],
  ['FlushStageAuthorizersCacheCommand', { restApiId: 'chat222', stageName: 'prod' }],
  ['FlushStageAuthorizersCacheCommand', { restApiId: 'acp333', stageName: 'live' }],
];

afterEach(() => gateway.reset());

describe('ApiGatewayKeyRegistry.register, command by command', () => {
  it.each([
    ['orgKey', 'plan-org'],
    ['chatKey', 'plan-chat'],
    ['acpKey', 'plan-acp'],
  ] as const)('puts a %s key in %s, under the id API Gateway returned', async (keyClass, plan) => {
    gateway.on(CreateApiKeyCommand).resolves({ id: `gw-${keyClass}`, name: NAME, value: KEY_ID });
    gateway.on(CreateUsagePlanKeyCommand).resolves({ id: `gw-${keyClass}`, type: 'API_KEY' });
    await expect(keys().register({ id: KEY_ID, keyClass })).resolves.toBeUndefined();
    expect(sent()).toEqual([
      ['CreateApiKeyCommand', { name: NAME, value: KEY_ID, enabled: true }],
      ['CreateUsagePlanKeyCommand', { usagePlanId: plan, keyId: `gw-${keyClass}`, keyType: 'API_KEY' }],
    ]);
  });

  it('refuses a key class with no usage plan before calling API Gateway', async () => {
    const err = await keys({ usagePlans: { orgKey: 'plan-org' }, authorizerStages: [] })
      .register({ id: KEY_ID, keyClass: 'chatKey' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(DomainError);
    expect((err as Error).message).toBe('no usage plan configured for chatKey keys');
    expect(sent()).toEqual([]);
  });

  it('turns the API key quota into 503-class `unavailable` and adds nothing to a plan', async () => {
    gateway.on(CreateApiKeyCommand).rejects(new LimitExceededException({ message: 'API key limit exceeded', ...meta }));
    const err = await keys()
      .register({ id: KEY_ID, keyClass: 'orgKey' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('unavailable');
    expect((err as DomainError).message).toBe(API_KEY_QUOTA_MESSAGE);
    expect(API_KEY_QUOTA_MESSAGE).toBe(
      'API Gateway allows 10,000 API keys per account and region and this account has reached it; no new key can be issued (docs/adr/0012)',
    );
    expect(sent()).toEqual([['CreateApiKeyCommand', { name: NAME, value: KEY_ID, enabled: true }]]);
  });

  it('on a retry takes only the exact name among the prefix matches GetApiKeys returns', async () => {
    gateway.on(CreateApiKeyCommand).rejects(new ConflictException({ message: 'x', ...meta }));
    gateway.on(GetApiKeysCommand).resolves({
      items: [
        { id: 'gw-longer', name: `${NAME}0` },
        { id: 'gw-mine', name: NAME },
      ],
    });
    gateway.on(CreateUsagePlanKeyCommand).rejects(new ConflictException({ message: 'x', ...meta }));
    await expect(keys().register({ id: KEY_ID, keyClass: 'acpKey' })).resolves.toBeUndefined();
    expect(sent()).toEqual([
      ['CreateApiKeyCommand', { name: NAME, value: KEY_ID, enabled: true }],
      FIND,
      ['CreateUsagePlanKeyCommand', { usagePlanId: 'plan-acp', keyId: 'gw-mine', keyType: 'API_KEY' }],
    ]);
  });

  it.each<[string, { items?: { id: string; name: string }[] }]>([
    ['only a longer name matches', { items: [{ id: 'gw-longer', name: `${NAME}-old` }] }],
    ['nothing matches', { items: [] }],
    ['no items at all', {}],
  ])('fails loudly when the conflicting key cannot be found (%s)', async (_, found) => {
    gateway.on(CreateApiKeyCommand).rejects(new ConflictException({ message: 'x', ...meta }));
    gateway.on(GetApiKeysCommand).resolves(found);
    await expect(keys().register({ id: KEY_ID, keyClass: 'orgKey' })).rejects.toThrow(`API key ${NAME} neither created nor found`);
    expect(sent()).toEqual([['CreateApiKeyCommand', { name: NAME, value: KEY_ID, enabled: true }], FIND]);
  });

  it('lets any other failure of CreateUsagePlanKey through (the plan is gone, say)', async () => {
    gateway.on(CreateApiKeyCommand).resolves({ id: 'gw-1' });
    gateway.on(CreateUsagePlanKeyCommand).rejects(new NotFoundException({ message: 'Invalid Usage Plan ID specified', ...meta }));
    const err = await keys()
      .register({ id: KEY_ID, keyClass: 'orgKey' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundException);
    expect((err as Error).message).toBe('Invalid Usage Plan ID specified');
  });

  it('lets a throttled GetApiKeys through on a retry', async () => {
    gateway.on(CreateApiKeyCommand).rejects(new ConflictException({ message: 'x', ...meta }));
    gateway.on(GetApiKeysCommand).rejects(new TooManyRequestsException({ message: 'slow down', ...meta }));
    await expect(keys().register({ id: KEY_ID, keyClass: 'orgKey' })).rejects.toBeInstanceOf(TooManyRequestsException);
    expect(sent().map(([n]) => n)).toEqual(['CreateApiKeyCommand', 'GetApiKeysCommand']);
  });
});

describe('ApiGatewayKeyRegistry.unregister, command by command', () => {
  it('flushes all three stages in order, then finds and deletes the key', async () => {
    gateway.on(FlushStageAuthorizersCacheCommand).resolves({});
    gateway.on(GetApiKeysCommand).resolves({
      items: [
        { id: 'gw-other', name: `${NAME}9` },
        { id: 'gw-mine', name: NAME },
      ],
    });
    gateway.on(DeleteApiKeyCommand).resolves({});
    await expect(keys().unregister({ id: KEY_ID })).resolves.toBeUndefined();
    expect(sent()).toEqual([...FLUSHES, FIND, ['DeleteApiKeyCommand', { apiKey: 'gw-mine' }]]);
  });

  it('flushes and deletes nothing else when no API key carries the exact name', async () => {
    gateway.on(FlushStageAuthorizersCacheCommand).resolves({});
    gateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'gw-other', name: `${NAME}9` }] });
    await expect(keys().unregister({ id: KEY_ID })).resolves.toBeUndefined();
    expect(sent()).toEqual([...FLUSHES, FIND]);
  });

  it('accepts a key deleted in between (NotFoundException)', async () => {
    gateway.on(FlushStageAuthorizersCacheCommand).resolves({});
    gateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'gw-mine', name: NAME }] });
    gateway.on(DeleteApiKeyCommand).rejects(new NotFoundException({ message: 'x', ...meta }));
    await expect(keys().unregister({ id: KEY_ID })).resolves.toBeUndefined();
    expect(sent()).toEqual([...FLUSHES, FIND, ['DeleteApiKeyCommand', { apiKey: 'gw-mine' }]]);
  });

  it('stops at a failed flush: the later stages and the key are left for the retry', async () => {
    gateway.on(FlushStageAuthorizersCacheCommand).resolves({});
    gateway.on(FlushStageAuthorizersCacheCommand, { restApiId: 'chat222' }).rejects(new TooManyRequestsException({ message: 'slow down', ...meta }));
    await expect(keys().unregister({ id: KEY_ID })).rejects.toBeInstanceOf(TooManyRequestsException);
    expect(sent()).toEqual(FLUSHES.slice(0, 2));
  });

  it.each([
    ['a throttle', () => new TooManyRequestsException({ message: 'slow down', ...meta })],
    ['a conflict', () => new ConflictException({ message: 'x', ...meta })],
  ])('lets %s on DeleteApiKey through', async (_, error) => {
    gateway.on(FlushStageAuthorizersCacheCommand).resolves({});
    gateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'gw-mine', name: NAME }] });
    const thrown = error();
    gateway.on(DeleteApiKeyCommand).rejects(thrown);
    await expect(keys().unregister({ id: KEY_ID })).rejects.toBe(thrown);
  });

  it('with no stage configured, only finds and deletes', async () => {
    gateway.on(GetApiKeysCommand).resolves({ items: [{ id: 'gw-mine', name: NAME }] });
    gateway.on(DeleteApiKeyCommand).resolves({});
    await keys({ usagePlans: {}, authorizerStages: [] }).unregister({ id: KEY_ID });
    expect(sent()).toEqual([FIND, ['DeleteApiKeyCommand', { apiKey: 'gw-mine' }]]);
  });
});

describe('ApiGatewayKeyRegistry.forgetAuthorizations, command by command', () => {
  it('flushes all three stages in order and touches no API key (a rotated key keeps its usage-plan key through its grace period)', async () => {
    gateway.on(FlushStageAuthorizersCacheCommand).resolves({});
    await expect(keys().forgetAuthorizations()).resolves.toBeUndefined();
    expect(sent()).toEqual(FLUSHES);
  });

  it('stops at a failed flush, for the caller to retry', async () => {
    gateway.on(FlushStageAuthorizersCacheCommand).resolves({});
    gateway.on(FlushStageAuthorizersCacheCommand, { restApiId: 'exp111' }).rejects(new TooManyRequestsException({ message: 'slow down', ...meta }));
    await expect(keys().forgetAuthorizations()).rejects.toBeInstanceOf(TooManyRequestsException);
    expect(sent()).toEqual(FLUSHES.slice(0, 1));
  });
});
