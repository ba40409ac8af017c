import type { CallbackCheckDeps } from '../../kernel/app/outbound-webhook-ports';
import type { McpConnection } from '../../tenancy/domain/app';
import type { BillingStore } from '../../tenancy/app/tenancy-ports';
import type { ConversationDeps, ConversationMetadataStore, SessionVariableStore, TurnSessionStore } from '../../conversations/app/conversation-ports';
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

/** A connection as a turn uses it: a server a request named carries the addresses its SSRF check accepted. */
export type ToolConnection = McpConnection & { readonly addresses?: readonly string[] };

export interface ToolProvider {
  /** Never throws for one connection's failure: that connection is `unavailable` for the turn. */
  listTools(connections: readonly ToolConnection[], variables: Readonly<Record<string, string>>): Promise<ListedTools>;
  callTool(
    connection: ToolConnection,
    variables: Readonly<Record<string, string>>,
    call: { readonly name: string; readonly input: Record<string, unknown> },
  ): Promise<ToolCallResult>;
}

/**
 * A Responses API response as stored for `GET /responses/{id}`: the object as answered, in its
 * session's partition (removed with the session), and the turn whose other messages were its input.
 */
export interface StoredResponse {
  readonly sessionId: string;
  readonly answerId: string;
  readonly appId: string;
  /** The turn whose other messages were the response's input; a background response's is known once it ran. */
  readonly turnId: string | null;
  readonly createdAtUs: number;
  readonly status: ResponseStatus;
  /** The response object as the client receives it (JSON). */
  readonly body: Readonly<Record<string, unknown>>;
  /** A background response's request, kept until its run ends. */
  readonly job?: unknown;
  /** While a background run is `in_progress`: until when its worker holds it. */
  readonly runUntilUs?: number;
}

import type { ResponseStatus } from '../domain/response-object';

/** What a status change writes. */
export interface ResponseChange {
  readonly status: ResponseStatus;
  readonly body: Readonly<Record<string, unknown>>;
  readonly turnId?: string;
  readonly runUntilUs?: number;
  /** The run is over: its request is no longer kept. */
  readonly dropJob?: boolean;
}

export interface ResponseStore {
  put(response: StoredResponse): Promise<void>;
  get(sessionId: string, answerId: string): Promise<StoredResponse | undefined>;
  /** False when there was nothing to remove. */
  remove(sessionId: string, answerId: string): Promise<boolean>;
  /** Writes `change` only when the stored status is one of `from` (false otherwise, also for none stored). */
  transition(sessionId: string, answerId: string, from: readonly ResponseStatus[], change: ResponseChange): Promise<boolean>;
}

/** The queue of background runs (SQS; the local queue locally): one message a response. */
export interface ResponseRunQueue {
  /** `delaySeconds`: the message is delivered no sooner (SQS allows up to 900). */
  send(message: ResponseRunMessage, delaySeconds?: number): Promise<void>;
}

export interface ResponseRunMessage {
  readonly sessionId: string;
  readonly answerId: string;
  readonly queuedAtUs: number;
}

/** What a chat turn needs beyond the conversation stores: models, MCP tools, variables and billing. */
export interface ChatPorts {
  readonly models: ModelCatalog;
  readonly tools: ToolProvider;
  readonly variables: SessionVariableStore;
  readonly billing: BillingStore;
  /** The SSRF check of the MCP servers a request names (a webhook callback's rules and resolver). */
  readonly network: CallbackCheckDeps;
  readonly responses: ResponseStore;
  readonly responseRuns: ResponseRunQueue;
}

/** What the Conversations API needs beyond the conversation stores: the conversations' metadata (never exported). */
export interface ConversationApiPorts {
  readonly conversationMetadata: ConversationMetadataStore;
}

/** Everything a use case of area B may pick its deps from. */
export type ChatDeps = Omit<ConversationDeps, 'sessions'> & ChatPorts & { readonly sessions: TurnSessionStore };

/** A fetched body and its declared type, or why it was not fetched, in words for the client whose URL it is. */
export type FetchedUrl = { readonly ok: true; readonly bytes: Buffer; readonly contentType?: string } | { readonly ok: false; readonly reason: string };

/** A URL the SSRF check accepted (kernel/app/check-callback-url.ts): the connection may go to `addresses` only. */
export interface CheckedUrl {
  readonly url: string;
  readonly hostname: string;
  readonly addresses: readonly string[];
}

/**
 * GETs a file from a client's https URL for a Responses API input part, as webhooks are sent: once,
 * pinned to the checked addresses, no redirect followed, cut off as soon as the body passes
 * `maxBytes`, and given up after `timeoutMs` in all. Every failure of the URL's server is a result,
 * never a throw.
 */
export interface UrlFetcher {
  fetch(target: CheckedUrl, limits: { readonly maxBytes: number; readonly timeoutMs: number }): Promise<FetchedUrl>;
}
