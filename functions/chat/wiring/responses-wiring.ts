/**
 * The Responses API's function: a chat turn's deps, plus what its `input_image` / `input_file` parts
 * need (ADR 0048): the upload pipeline (file-type, the document parser, the OCR engine) to store inline
 * and fetched files, and the URL fetcher behind the webhook SSRF guard.
 */
import { NodeHttpsUrlFetcher } from '../adapters/node-https-url-fetcher';
import type { UrlFetcher } from '../app/chat-ports';
import type { FilePorts } from '../../conversations/app/file-ports';
import { extraTrust, type OutboundNetworkWiringOptions } from '../../kernel/wiring/outbound-network-wiring';
import { onFirstUse } from '../../tenancy/wiring/core-wiring';
import { buildChatDeps, type ChatFunctionDeps, type ChatWiringOptions } from './chat-wiring';
import { buildFilePorts } from './file-wiring';
import { buildResponseRunQueue } from './response-run-wiring';

export type ResponsesFunctionDeps = ChatFunctionDeps & FilePorts & { readonly urls: UrlFetcher };

/** Pinned as webhooks are; only test wiring adds a CA (a loopback server's), the Lambda never does. */
export function buildUrlFetcher(opts: OutboundNetworkWiringOptions): UrlFetcher {
  return new NodeHttpsUrlFetcher(extraTrust(opts));
}

export function buildResponsesDeps(opts: ChatWiringOptions): ResponsesFunctionDeps {
  return { ...buildFilePorts(opts), ...buildChatDeps(opts), responseRuns: buildResponseRunQueue(opts), urls: buildUrlFetcher(opts) };
}

export const responsesProductionDeps = /* @__PURE__ */ onFirstUse(buildResponsesDeps);
