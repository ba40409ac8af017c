/**
 * The Chat Completions API's functions (area B): the table, the bucket, the models and the MCP tool
 * gateway. Bedrock's adapter and the MCP SDK are imported on their first use (lazy-chat-model.ts,
 * mcp-tool-provider.ts), and no SQS client is built here: only the functions that send background
 * runs add one (response-run-wiring.ts).
 */
import { createDocumentClient } from '../../kernel/adapters/aws-clients';
import { DynamoBillingStore } from '../../tenancy/adapters/dynamo-org-store';
import { DynamoIdempotencyStore } from '../../kernel/adapters/dynamo-idempotency-store';
import { DynamoSessionVariableStore } from '../../conversations/adapters/dynamo-session-variable-store';
import { McpToolProvider } from '../adapters/mcp-tool-provider';
import { DynamoResponseStore } from '../adapters/dynamo-response-store';
import { buildCallbackCheck, extraTrust, type OutboundNetworkWiringOptions } from '../../kernel/wiring/outbound-network-wiring';
import { ConfiguredModelCatalog } from '../adapters/model-catalog';
import { LazyChatModel } from '../adapters/lazy-chat-model';
import { ENV } from '../../kernel/env';
import type { ChatPorts, ResponseRunQueue, ToolProvider } from '../app/chat-ports';
import type { ConversationPorts } from '../../conversations/app/conversation-ports';
import type { FilePorts } from '../../conversations/app/file-ports';
import type { IdempotencyStore } from '../../kernel/app/kernel-ports';
import { buildConversationPorts } from '../../conversations/conversation-wiring';
import { buildObjectStore } from '../../conversations/object-store-wiring';
import { buildCoreDeps, onFirstUse, type CoreDeps } from '../../tenancy/wiring/core-wiring';
import type { FileWiringOptions } from './ocr-wiring';

/**
 * Area B's wiring seams: the MCP client, the file pipeline's, and the outbound SSRF check's (DNS answers
 * and exceptions for the MCP servers and file URLs a request names: test wiring only, as for webhooks).
 */
export interface ChatWiringOptions extends FileWiringOptions, OutboundNetworkWiringOptions {
  /** Tests may swap the MCP client's transport-level behaviour; production uses McpToolProvider. */
  readonly tools?: ToolProvider;
}

/** Chat turns keep their Idempotency-Key answers in the same store as area C's POSTs. */
export type ChatFunctionDeps = CoreDeps & ConversationPorts & ChatPorts & Pick<FilePorts, 'objects'> & { readonly idempotency: IdempotencyStore };

/** The queue of a function without the `responses:send` grant: it never sends. */
export const NO_RESPONSE_RUNS: ResponseRunQueue = {
  send: () => {
    throw new Error(`${ENV.responsesQueueUrl} is not set: this function has no responses:send grant`);
  },
};

export function buildChatPorts(opts: ChatWiringOptions, db = createDocumentClient(opts.aws ?? {})): ChatPorts {
  const env = opts.env;
  const table = env[ENV.tableName];
  const openAiBaseUrl = env[ENV.openAiBaseUrl];
  const openAiApiKey = env[ENV.openAiApiKey];
  return {
    models: new ConfiguredModelCatalog({
      ...(env[ENV.bedrockEnabled] === 'true'
        ? { bedrock: new LazyChatModel(async () => (await import('../adapters/bedrock-chat-model')).bedrockChatModel(opts.aws?.region)) }
        : {}),
      ...(openAiBaseUrl !== undefined ? { openai: { baseUrl: openAiBaseUrl, ...(openAiApiKey !== undefined ? { apiKey: openAiApiKey } : {}) } } : {}),
    }),
    tools: opts.tools ?? new McpToolProvider(undefined, undefined, extraTrust(opts)),
    variables: new DynamoSessionVariableStore(db, table),
    billing: new DynamoBillingStore(db, table),
    responses: new DynamoResponseStore(db, table),
    responseRuns: NO_RESPONSE_RUNS,
    network: buildCallbackCheck(opts),
  };
}

export function buildChatDeps(opts: ChatWiringOptions): ChatFunctionDeps {
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

export const chatProductionDeps = /* @__PURE__ */ onFirstUse(buildChatDeps);
