/**
 * ApiKeyRegistry on API Gateway: one API key per platform key, its value the platform key's id (the key
 * authorizers return it as `usageIdentifierKey`), in the usage plan of its key class; revoking flushes
 * the authorizer cache of every area API first, so the revoked key is refused at once (docs/adr/0012).
 */
import {
  type APIGatewayClient,
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  FlushStageAuthorizersCacheCommand,
  GetApiKeysCommand,
  LimitExceededException,
  NotFoundException,
} from '@aws-sdk/client-api-gateway';
import type { KeyClass } from '../../kernel/domain/auth-messages';
import { DomainError } from '../../kernel/domain/errors';
import type { ApiKeyRegistry } from '../app/tenancy-ports';

export interface ApiGatewayKeysConfig {
  /** The usage plan of each key class (env GATEWAY_USAGE_PLANS). */
  readonly usagePlans: Partial<Record<KeyClass, string>>;
  /** Every area API stage with a key authorizer (env GATEWAY_AUTHORIZER_STAGES). */
  readonly authorizerStages: readonly { readonly restApiId: string; readonly stageName: string }[];
}

/** API keys are named after the platform key, so a retry or a revoke finds the one it made. */
export const apiKeyName = (keyId: string): string => `platform-key-${keyId}`;

export const API_KEY_QUOTA_MESSAGE =
  'API Gateway allows 10,000 API keys per account and region and this account has reached it; no new key can be issued (docs/adr/0012)';

export class ApiGatewayKeyRegistry implements ApiKeyRegistry {
  constructor(
    private readonly client: APIGatewayClient,
    private readonly config: ApiGatewayKeysConfig,
  ) {}

  async register(key: { readonly id: string; readonly keyClass: KeyClass }): Promise<void> {
    const usagePlanId = this.config.usagePlans[key.keyClass];
    if (!usagePlanId) throw new Error(`no usage plan configured for ${key.keyClass} keys`);
    const apiKeyId = (await this.create(key.id)) ?? (await this.find(key.id));
    if (!apiKeyId) throw new Error(`API key ${apiKeyName(key.id)} neither created nor found`);
    try {
      await this.client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: apiKeyId, keyType: 'API_KEY' }));
    } catch (err) {
      if (!(err instanceof ConflictException)) throw err; // already in the plan: a retry
    }
  }

  async unregister(key: { readonly id: string }): Promise<void> {
    await this.forgetAuthorizations();
    const apiKeyId = await this.find(key.id);
    if (!apiKeyId) return;
    try {
      await this.client.send(new DeleteApiKeyCommand({ apiKey: apiKeyId }));
    } catch (err) {
      if (!(err instanceof NotFoundException)) throw err;
    }
  }

  async forgetAuthorizations(): Promise<void> {
    for (const stage of this.config.authorizerStages) {
      await this.client.send(new FlushStageAuthorizersCacheCommand({ restApiId: stage.restApiId, stageName: stage.stageName }));
    }
  }

  /** The new API key's id, or undefined when one with this value exists already (a retry). */
  private async create(keyId: string): Promise<string | undefined> {
    try {
      const created = await this.client.send(new CreateApiKeyCommand({ name: apiKeyName(keyId), value: keyId, enabled: true }));
      return created.id;
    } catch (err) {
      if (err instanceof ConflictException) return undefined;
      if (err instanceof LimitExceededException) throw new DomainError('unavailable', API_KEY_QUOTA_MESSAGE);
      throw err;
    }
  }

  private async find(keyId: string): Promise<string | undefined> {
    const found = await this.client.send(new GetApiKeysCommand({ nameQuery: apiKeyName(keyId), includeValues: false, limit: 2 }));
    return found.items?.find((item) => item.name === apiKeyName(keyId))?.id;
  }
}
