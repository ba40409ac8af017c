/**
 * The admin API's functions: the tenancy, credential and conversation stores, release notes (publishing
 * queues deliveries), billing, the jobs queue and the gateway's keys. No model, MCP client or webhook
 * delivery client.
 */
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { ApiGatewayKeys } from '../adapters/apigateway-gateway-keys';
import { createDocumentClient } from '../adapters/aws-clients';
import { createSqsClient } from '../adapters/aws-queue-clients';
import { DynamoBillingStore } from '../adapters/dynamo-billing-store';
import { DynamoSessionVariableStore } from '../adapters/dynamo-session-variable-store';
import { SqsJobQueue } from '../adapters/sqs-job-queue';
import { ENV, type EnvVars } from '../env';
import type { ChatPorts } from '../ports/chat';
import type { ConversationPorts } from '../ports/conversations';
import type { AdminPorts, GatewayKeys } from '../ports/platform';
import type { ReleaseNotesPorts } from '../ports/release-notes';
import { buildConversationPorts } from './conversation-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from './core-wiring';
import { buildReleaseNotesPorts } from './release-notes-wiring';

export type AdminFunctionDeps = CoreDeps & ConversationPorts & ReleaseNotesPorts & AdminPorts & Pick<ChatPorts, 'variables' | 'billing'>;

/** Functions without the `gatewayKeys:manage` grant never touch the gateway's keys. */
const NOT_GRANTED: GatewayKeys = {
  register: () => Promise.reject(new Error('this function has no gatewayKeys:manage grant')),
  unregister: () => Promise.reject(new Error('this function has no gatewayKeys:manage grant')),
};

export function gatewayKeysFrom(env: EnvVars, opts: WiringOptions): GatewayKeys {
  if (opts.gatewayKeys) return opts.gatewayKeys;
  const usagePlans = env[ENV.gatewayUsagePlans];
  const authorizerStages = env[ENV.gatewayAuthorizerStages];
  if (!usagePlans || !authorizerStages) return NOT_GRANTED;
  return new ApiGatewayKeys(new APIGatewayClient({ region: opts.aws?.region }), { usagePlans, authorizerStages });
}

export function buildAdminDeps(opts: WiringOptions): AdminFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  const table = opts.env[ENV.tableName];
  return {
    ...buildCoreDeps(opts, db),
    ...buildConversationPorts(db, table),
    ...buildReleaseNotesPorts(opts, db),
    variables: new DynamoSessionVariableStore(db, table),
    billing: new DynamoBillingStore(db, table),
    jobs: new SqsJobQueue(createSqsClient(opts.aws ?? {}), opts.env[ENV.jobsQueueUrl]),
    gatewayKeys: gatewayKeysFrom(opts.env, opts),
  };
}

export const adminProductionDeps = onFirstUse(buildAdminDeps);
