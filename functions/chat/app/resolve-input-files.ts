/**
 * The files of a Responses API request's `input_image` / `input_file` parts, as the `files` references
 * of its chat turn: an upload named by id is checked as `files` checks it; inline bytes and the body of an
 * https URL are stored first through the upload route's own pipeline (type by leading bytes, the 20 MB
 * limit, 422 for unreadable documents, OCR for scans), as files of the session when it exists already.
 * Every refusal names the part (`input[2].content[1].image_url: …`) before the upload's own text.
 */
import { DomainError, TemporarilyUnavailableError, badRequest, notFound } from '../../kernel/domain/errors';
import { isUuid } from '../../kernel/domain/ids';
import { MAX_UPLOAD_BYTES, acceptedTypeOf } from '../../conversations/domain/file';
import type { ChatPrincipal } from '../../tenancy/app/admit-request';
import { fileNameOfMediaType, type FilePart } from '../domain/responses-file-parts';
import type { ChatRequest } from '../domain/chat-request';
import { MAX_FILE_REFERENCES, type FileReference } from '../domain/turn-fields';
import { checkCallbackUrl, type CallbackCheck } from '../../kernel/app/check-callback-url';
import type { ChatPorts, FetchedUrl, UrlFetcher } from './chat-ports';
import { requireChatSessionOfApp } from './record-session-activity';
import { uploadFile } from './upload-file';
import type { UploadDeps } from './upload-steps';

/** How long the whole fetch of one URL may take. */
export const URL_FETCH_TIMEOUT_MS = 10_000;

/** `network`: the webhooks' SSRF check (its exceptions are test wiring's only), as for a request's MCP servers. */
export type InputFileDeps = UploadDeps & Pick<ChatPorts, 'network'> & { readonly urls: UrlFetcher };

/** Why the SSRF check refused a URL, for the client whose URL it is (a range, never a resolved address). */
function refusalReason(check: Extract<CallbackCheck, { ok: false }>): string {
  switch (check.reason) {
    case 'invalid_url':
      return check.detail === 'not_https' ? 'only https URLs are fetched' : `the URL is not usable (${check.detail})`;
    case 'refused_address':
      return `its host resolves to an address that is not public (${check.detail}): only public addresses are fetched`;
    case 'dns_not_found':
      return 'its host name does not resolve';
    case 'dns_temporary':
      return 'its host name could not be resolved now';
  }
}

/** The body of an https URL, through the webhooks' SSRF check: every address its host resolves to must be public. */
async function fetched(deps: InputFileDeps, url: string): Promise<FetchedUrl> {
  // The fragment never leaves the client: it is dropped rather than refused.
  const check = await checkCallbackUrl(deps.network, url.split('#')[0]!);
  if (!check.ok) return { ok: false, reason: refusalReason(check) };
  return deps.urls.fetch(check, { maxBytes: MAX_UPLOAD_BYTES, timeoutMs: URL_FETCH_TIMEOUT_MS });
}

const MAX_FILE_NAME = 255;

/** A refusal of the upload pipeline, naming the part; storage being down stays the 503 it is. */
function atPart(at: string, err: unknown): never {
  if (err instanceof DomainError && !(err instanceof TemporarilyUnavailableError)) throw new DomainError(err.code, `${at}: ${err.message}`, err.detail);
  throw err;
}

/** An upload by id: this app's and ready, as with `files`; one of another app's counts as missing. */
async function uploaded(deps: InputFileDeps, principal: ChatPrincipal, part: FilePart & { source: { from: 'file_id' } }): Promise<FileReference> {
  const { fileId } = part.source;
  const file = isUuid(fileId) ? await deps.files.get(fileId) : undefined;
  // A file of another app may still be one of the session's consumer: the turn's own check decides (a 404 naming only the id).
  const shared = file?.status === 'ready' && file.appId !== principal.app.id && file.consumerId !== null;
  if (shared) return { fileId: file.id, fileName: file.fileName };
  if (file?.status !== 'ready' || file.appId !== principal.app.id) throw notFound(`${part.at}: File not found: ${fileId.slice(0, 100)}`);
  if (part.type === 'input_image' && file.kind !== 'image') throw badRequest(`${part.at}: file ${fileId} is not an image (send documents as input_file)`);
  return { fileId: file.id, fileName: file.fileName };
}

/** The name a fetched file is stored under: the part's `filename`, the URL's last segment, or its answer's type. */
function fetchedName(url: string, contentType: string | undefined): string {
  let last = '';
  try {
    last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    // A segment that is no valid percent-encoding names nothing.
  }
  if (last && acceptedTypeOf(last)) return last.slice(-MAX_FILE_NAME);
  const byType = contentType ? fileNameOfMediaType(contentType.split(';')[0]!.trim()) : undefined;
  return byType ?? (last.slice(-MAX_FILE_NAME) || 'download');
}

async function stored(
  deps: InputFileDeps,
  input: { principal: ChatPrincipal; sessionId?: string; part: FilePart; fileName: string; bytes: Buffer },
): Promise<FileReference> {
  const { part, fileName } = input;
  if (part.type === 'input_image' && acceptedTypeOf(fileName)?.kind !== 'image') {
    throw badRequest(`${part.at}: an image must be a PNG or JPEG (send documents as input_file), not "${fileName.slice(0, 200)}"`);
  }
  try {
    const file = await uploadFile(deps, {
      principal: input.principal,
      fileName,
      bytes: input.bytes,
      ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
    });
    return { fileId: file.id, fileName: file.fileName };
  } catch (err) {
    atPart(part.at, err);
  }
}

/**
 * Each part's file, in order. `sessionId` is the session the turn continues: a file stored here is
 * recorded for it (its consumer), as an upload with `X-Chat-Session-ID` is; an unknown one is the 404
 * the turn would give.
 */
export async function resolveInputFiles(
  deps: InputFileDeps,
  input: { readonly principal: ChatPrincipal; readonly sessionId?: string; readonly parts: readonly FilePart[] },
): Promise<FileReference[]> {
  const { principal, parts } = input;
  let sessionId: string | undefined;
  if (input.sessionId !== undefined && parts.some((p) => p.source.from !== 'file_id')) {
    sessionId = (await requireChatSessionOfApp(deps, input.sessionId, principal.app.id)) ? input.sessionId : undefined;
  }
  const refs: FileReference[] = [];
  // One at a time: a request's files are checked, fetched and stored in order, and the first refusal ends it.
  for (const part of parts) {
    const { source } = part;
    if (source.from === 'file_id') {
      refs.push(await uploaded(deps, principal, { ...part, source }));
    } else if (source.from === 'data') {
      const bytes = Buffer.from(source.base64, 'base64');
      refs.push(await stored(deps, { principal, ...(sessionId ? { sessionId } : {}), part, fileName: source.fileName, bytes }));
    } else {
      const body = await fetched(deps, source.url);
      if (!body.ok) throw badRequest(`${part.at}: the URL could not be fetched: ${body.reason}`);
      const fileName = source.fileName ?? fetchedName(source.url, body.contentType);
      refs.push(await stored(deps, { principal, ...(sessionId ? { sessionId } : {}), part, fileName, bytes: body.bytes }));
    }
  }
  return refs;
}

/**
 * The turn's request with its parts' files after its own `files` (at most 100 in all). Runs once the
 * request holds its Idempotency-Key: a replay stores and fetches nothing again. The session is the one
 * the turn continues (`previous_response_id`, `chatSessionId` or the `X-Chat-Session-ID` header).
 */
export async function attachInputFiles(
  deps: InputFileDeps,
  input: { readonly principal: ChatPrincipal; readonly request: ChatRequest; readonly parts: readonly FilePart[]; readonly headerSessionId?: string },
): Promise<ChatRequest> {
  const { request, parts } = input;
  if (request.files.length + parts.length > MAX_FILE_REFERENCES) {
    throw badRequest(`files and the input's file parts: at most ${MAX_FILE_REFERENCES} files per request`);
  }
  const sessionId = request.chatSessionId ?? input.headerSessionId;
  const files = await resolveInputFiles(deps, { principal: input.principal, parts, ...(sessionId !== undefined ? { sessionId } : {}) });
  return { ...request, files: [...request.files, ...files] };
}
