/** The admin routes that issue and revoke keys: the base admin deps plus the gateway's keys (ADR 0012). */
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { ApiGatewayKeys } from '../adapters/apigateway-gateway-keys';
import { ENV, type EnvVars } from '../env';
import type { GatewayKeys } from '../ports/platform';
import { buildAdminBaseDeps, type AdminBaseDeps } from './admin-wiring';
import { onFirstUse, type WiringOptions } from './core-wiring';

export type AdminKeysDeps = AdminBaseDeps & { readonly gatewayKeys: GatewayKeys };

/** Functions without the `gatewayKeys:manage` grant never touch the gateway's keys. */
const NOT_GRANTED: GatewayKeys = {
  register: () => Promise.reject(new Error('this function has no gatewayKeys:manage grant')),
  unregister: () => Promise.reject(new Error('this function has no gatewayKeys:manage grant')),
};

/** The local gateway when the local process passes one; API Gateway from the grant's variables otherwise. */
export function gatewayKeysFrom(env: EnvVars, opts: WiringOptions): GatewayKeys {
  if (opts.gatewayKeys) return opts.gatewayKeys;
  const usagePlans = env[ENV.gatewayUsagePlans];
  const authorizerStages = env[ENV.gatewayAuthorizerStages];
  if (!usagePlans || !authorizerStages) return NOT_GRANTED;
  return new ApiGatewayKeys(new APIGatewayClient({ region: opts.aws?.region }), { usagePlans, authorizerStages });
}

export const adminKeysProductionDeps = onFirstUse((opts): AdminKeysDeps => ({ ...buildAdminBaseDeps(opts), gatewayKeys: gatewayKeysFrom(opts.env, opts) }));
