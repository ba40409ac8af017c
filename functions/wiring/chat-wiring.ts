/** The Chat Completions API's functions (area B): the table, the bucket, the models and the MCP tool gateway. */
import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { createDocumentClient } from '../adapters/aws-clients';
import { DynamoBillingStore } from '../adapters/dynamo-billing-store';
import { DynamoIdempotencyStore } from '../adapters/dynamo-idempotency-store';
import { DynamoSessionVariableStore } from '../adapters/dynamo-session-variable-store';
import { McpToolGateway } from '../adapters/mcp-tool-gateway';
import { ConfiguredModelCatalog } from '../adapters/model-catalog';
import { ENV } from '../env';
import type { ChatPorts } from '../ports/chat';
import type { ConversationPorts } from '../ports/conversations';
import type { FilePorts } from '../ports/files';
import type { IdempotencyStore } from '../ports/platform';
import { buildConversationPorts } from './conversation-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps, type WiringOptions } from './core-wiring';
import { buildObjectStore } from './object-store-wiring';

/** Chat turns keep their Idempotency-Key answers in the same store as area C's POSTs. */
export type ChatFunctionDeps = CoreDeps & ConversationPorts & ChatPorts & Pick<FilePorts, 'objects'> & { readonly idempotency: IdempotencyStore };

export function buildChatPorts(opts: WiringOptions, db = createDocumentClient(opts.aws ?? {})): ChatPorts {
  const env = opts.env;
  const table = env[ENV.tableName];
  const openAiBaseUrl = env[ENV.openAiBaseUrl];
  const openAiApiKey = env[ENV.openAiApiKey];
  return {
    models: new ConfiguredModelCatalog({
      ...(env[ENV.bedrockEnabled] === 'true' ? { bedrock: new BedrockRuntimeClient({ region: opts.aws?.region }) } : {}),
      ...(openAiBaseUrl !== undefined ? { openai: { baseUrl: openAiBaseUrl, ...(openAiApiKey !== undefined ? { apiKey: openAiApiKey } : {}) } } : {}),
    }),
    tools: opts.tools ?? new McpToolGateway(),
    variables: new DynamoSessionVariableStore(db, table),
    billing: new DynamoBillingStore(db, table),
  };
}

export function buildChatDeps(opts: WiringOptions): ChatFunctionDeps {
  const db = createDocumentClient(opts.aws ?? {});
  // The bucket: images of a turn go to the model, and readPDF/readDocument read extracted text.
  return {
    ...buildCoreDeps(opts, db),
    ...buildConversationPorts(db, opts.env[ENV.tableName]),
    ...buildChatPorts(opts, db),
    objects: buildObjectStore(opts),
    idempotency: new DynamoIdempotencyStore(db, opts.env[ENV.tableName]),
  };
}

export const chatProductionDeps = onFirstUse(buildChatDeps);
