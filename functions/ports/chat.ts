import type { McpConnection } from '../domain/app';
import type { ModelRequest, ModelResponse, ModelSelection, ModelStreamEvent, ModelToolSpec } from '../domain/model';

/** One model provider behind the platform (docs/design.md §1: Bedrock on AWS, offline locally, or any OpenAI-compatible server). */
export interface ChatModel {
  converse(request: ModelRequest): Promise<ModelResponse>;
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

export interface ModelCatalog {
  /** The adapter for an app's model selection; undefined when the provider is not configured here. */
  modelFor(selection: ModelSelection): ChatModel | undefined;
}

/** A tool offered to the model, with the connection that serves it. */
export interface ConnectedTool {
  readonly connection: string;
  readonly spec: ModelToolSpec;
}

export interface ToolCallResult {
  readonly content: string;
  readonly isError: boolean;
}

/**
 * External tools over MCP (Streamable HTTP). Header templates of a connection are rendered with the
 * session's variables (`{{session.<name>}}`) on every call; rendered values never leave this port.
 */
/** The tools a turn may use, and the connections that could not offer theirs (unreachable, too slow, an error). */
export interface ListedTools {
  readonly tools: ConnectedTool[];
  readonly unavailable: readonly { readonly connection: string; readonly reason: string }[];
}

export interface ToolGateway {
  /** Never throws for one connection's failure: that connection is `unavailable` for the turn. */
  listTools(connections: readonly McpConnection[], variables: Readonly<Record<string, string>>): Promise<ListedTools>;
  callTool(
    connection: McpConnection,
    variables: Readonly<Record<string, string>>,
    call: { readonly name: string; readonly input: Record<string, unknown> },
  ): Promise<ToolCallResult>;
}

/** Session-scoped variables: stored with the session and removed with it, never returned or logged. */
export interface SessionVariableStore {
  get(sessionId: string): Promise<Record<string, string>>;
  /** Merges `variables` over the stored ones. */
  merge(sessionId: string, variables: Readonly<Record<string, string>>): Promise<Record<string, string>>;
}

/** Prepaid credits per org and month-to-date spend per app, in pico-dollars (1e-12 USD). */
export interface BillingStore {
  /** Remaining credits of the org; undefined when the org has no credit account (unlimited). */
  credits(orgId: string): Promise<bigint | undefined>;
  addCredits(orgId: string, pico: bigint): Promise<bigint>;
  monthSpend(appId: string, month: string): Promise<bigint>;
  /** Records a charge: the org's credits go down, the app's month-to-date spend goes up. */
  charge(orgId: string, appId: string, month: string, pico: bigint): Promise<void>;
}

/** What a chat turn needs beyond the conversation stores: models, MCP tools, variables and billing. */
export interface ChatPorts {
  readonly models: ModelCatalog;
  readonly tools: ToolGateway;
  readonly variables: SessionVariableStore;
  readonly billing: BillingStore;
}
