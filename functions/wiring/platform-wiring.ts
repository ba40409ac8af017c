/**
 * The whole platform's deps: the admin API, the queue workers, the scheduled jobs, the local process
 * and the tests. Area functions use their own, smaller wiring (export-, chat-, release-notes-wiring).
 */
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { ApiGatewayKeys } from '../adapters/apigateway-gateway-keys';
import { createDocumentClient } from '../adapters/aws-clients';
import { createSqsClient } from '../adapters/aws-queue-clients';
import { SqsJobQueue } from '../adapters/sqs-job-queue';
import { ENV, type EnvVars } from '../env';
import type { Deps } from '../ports/deps';
import type { GatewayKeys } from '../ports/platform';
import { buildChatPorts } from './chat-wiring';
import { buildConversationPorts } from './conversation-wiring';
import { buildCoreDeps, onFirstUse, parseEnv, type CoreDeps, type WiringOptions } from './core-wiring';
import { buildExportPorts } from './export-wiring';
import { buildReleaseNotesPorts } from './release-notes-wiring';

export { parseEnv, type WiringOptions };

export type PlatformDeps = CoreDeps & Deps;

/** Functions without the `gatewayKeys:manage` grant never touch the gateway's keys. */
const NOT_GRANTED: GatewayKeys = {
  register: () => Promise.reject(new Error('this function has no gatewayKeys:manage grant')),
  unregister: () => Promise.reject(new Error('this function has no gatewayKeys:manage grant')),
};

function gatewayKeysFrom(env: EnvVars, opts: WiringOptions): GatewayKeys {
  const usagePlans = env[ENV.gatewayUsagePlans];
  const authorizerStages = env[ENV.gatewayAuthorizerStages];
  if (!usagePlans || !authorizerStages) return NOT_GRANTED;
  return new ApiGatewayKeys(new APIGatewayClient({ region: opts.aws?.region }), { usagePlans, authorizerStages });
}

export function buildDeps(opts: WiringOptions): PlatformDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return {
    ...buildCoreDeps(opts, db),
    ...buildConversationPorts(db, table),
    ...buildChatPorts(opts, db),
    ...buildReleaseNotesPorts(opts, db),
    ...buildExportPorts(db, table),
    jobs: new SqsJobQueue(createSqsClient(opts.aws ?? {}), opts.env[ENV.jobsQueueUrl]),
    gatewayKeys: opts.gatewayKeys ?? gatewayKeysFrom(opts.env, opts),
  };
}

export const platformProductionDeps = onFirstUse(buildDeps);
