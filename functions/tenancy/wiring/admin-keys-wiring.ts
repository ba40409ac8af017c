/** The admin routes that issue and revoke keys: the base admin deps plus the gateway's keys (ADR 0012). */
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { ApiGatewayKeyRegistry } from '../adapters/api-gateway-key-registry';
import { ENV, type EnvVars } from '../../kernel/env';
import type { ApiKeyRegistry } from '../app/tenancy-ports';
import { buildAdminBaseDeps, type AdminBaseDeps } from './admin-wiring';
import { onFirstUse, type WiringOptions } from './core-wiring';

export type AdminKeysDeps = AdminBaseDeps & { readonly apiKeys: ApiKeyRegistry };

/** Functions without the `apiKeys:manage` grant never touch the gateway's keys. */
export const NO_API_KEYS: ApiKeyRegistry = {
  register: () => Promise.reject(new Error('this function has no apiKeys:manage grant')),
  unregister: () => Promise.reject(new Error('this function has no apiKeys:manage grant')),
  forgetAuthorizations: () => Promise.reject(new Error('this function has no apiKeys:manage grant')),
};

/** The local gateway when the local process passes one; API Gateway from the grant's variables otherwise. */
export function apiKeyRegistryFrom(env: EnvVars, opts: WiringOptions): ApiKeyRegistry {
  if (opts.apiKeys) return opts.apiKeys;
  const usagePlans = env[ENV.gatewayUsagePlans];
  const authorizerStages = env[ENV.gatewayAuthorizerStages];
  if (!usagePlans || !authorizerStages) return NO_API_KEYS;
  return new ApiGatewayKeyRegistry(new APIGatewayClient({ region: opts.aws?.region }), { usagePlans, authorizerStages });
}

export const adminKeysProductionDeps = /* @__PURE__ */ onFirstUse(
  (opts): AdminKeysDeps => ({ ...buildAdminBaseDeps(opts), apiKeys: apiKeyRegistryFrom(opts.env, opts) }),
);
