/**
 * Files referenced by a chat turn (spec area B): which references a turn may use, the app's
 * image-input settings, how attachments reach the model (images as vision input, documents named in
 * the message and read through the built-in `readPDF` / `readDocument` tools), and those tools.
 */
import { DomainError, badRequest, notFound } from '../../kernel/domain/errors';
import type { App } from '../../tenancy/domain/app';
import type { FileReference } from '../domain/turn-fields';
import { OCR_WAIT_MS, type StoredFile } from '../../conversations/domain/file';
import type { ModelImage, ModelToolSpec } from '../domain/model';
import type { MessageFile, Session } from '../../conversations/domain/session';
import type { ToolCallResult } from './chat-ports';
import type { ChatDeps } from './chat-ports';
import { isUuid } from '../../kernel/domain/ids';

type AttachmentDeps = Pick<ChatDeps, 'files' | 'objects'>;

/** A referenced file, checked: ready, and reachable by the calling app. */
export interface TurnAttachment extends MessageFile {
  readonly file: StoredFile;
}

export const READ_PDF = 'readPDF';
export const READ_DOCUMENT = 'readDocument';

/** Characters of a document's text one tool call returns to the model. */
export const MAX_TOOL_TEXT_CHARS = 100_000;

const FILE_ID_INPUT = {
  type: 'object',
  properties: { fileId: { type: 'string', description: 'The fileId of an attached document, as listed in the message' } },
  required: ['fileId'],
  additionalProperties: false,
} as const;

/** The built-in document tools, offered when the conversation has an attached document of their kind. */
export const DOCUMENT_TOOLS: Readonly<Record<'pdf' | 'docx', ModelToolSpec>> = {
  pdf: {
    name: READ_PDF,
    description: 'Returns the text of an attached PDF document (scanned PDFs are read with OCR, which can take 15-30 seconds).',
    inputSchema: FILE_ID_INPUT,
  },
  docx: { name: READ_DOCUMENT, description: 'Returns the text of an attached Word (.docx) document.', inputSchema: FILE_ID_INPUT },
};

/**
 * Every file reference must name a ready file uploaded with a key of the same app, or one that
 * belongs to the current session's consumer; anything else is a 404 that names only the reference.
 * A file referenced twice counts once. The reference's `fileName` is the name the model is shown.
 */
export async function resolveAttachments(
  deps: AttachmentDeps,
  input: { app: App; session: Session | undefined; refs: readonly FileReference[] },
): Promise<TurnAttachment[]> {
  const unique = [...new Map(input.refs.map((r) => [r.fileId, r])).values()];
  return Promise.all(
    unique.map(async (ref) => {
      const file = isUuid(ref.fileId) ? await deps.files.get(ref.fileId) : undefined;
      const ownApp = file?.appId === input.app.id;
      const ownConsumer = file !== undefined && input.session?.consumerId != null && file.consumerId === input.session.consumerId;
      if (file?.status !== 'ready' || !(ownApp || ownConsumer)) throw notFound(`File not found: ${ref.fileId.slice(0, 100)}`);
      return { fileId: file.id, fileName: ref.fileName, kind: file.kind, file };
    }),
  );
}

/**
 * Images need the app's image input enabled, and the conversation's images (those already
 * attached to the session plus the new ones) may not pass the app's per-conversation limit.
 */
export async function checkImageInput(
  deps: AttachmentDeps,
  input: { app: App; session: Session | undefined; attachments: readonly TurnAttachment[] },
): Promise<void> {
  const images = input.attachments.filter((a) => a.kind === 'image');
  if (images.length === 0) return;
  const settings = input.app.settings.imageInput;
  if (!settings.enabled) throw new DomainError('unprocessable', 'Image input is disabled for this app', 'IMAGE_INPUT_DISABLED');
  const earlier = input.session ? (await deps.files.listAttached(input.session.id)).filter((f) => f.kind === 'image').map((f) => f.fileId) : [];
  const total = new Set([...earlier, ...images.map((i) => i.fileId)]).size;
  if (total > settings.maxPerConversation) {
    throw new DomainError(
      'unprocessable',
      `Image limit reached: this conversation may include at most ${settings.maxPerConversation} images (${earlier.length} already attached, ${images.length} in this request)`,
      'IMAGE_LIMIT_REACHED',
    );
  }
}

/** The images of a turn as vision input, read from object storage. */
export async function loadImages(deps: AttachmentDeps, attachments: readonly TurnAttachment[]): Promise<ModelImage[]> {
  return Promise.all(
    attachments
      .filter((a) => a.kind === 'image')
      .map(async (a) => {
        const bytes = await deps.objects.get(a.file.storageKey);
        if (!bytes) throw new Error(`stored bytes of file ${a.fileId} are missing`);
        return { format: a.file.mimeType === 'image/png' ? 'png' : 'jpeg', bytes } satisfies ModelImage;
      }),
  );
}

const KIND_LABEL = { image: 'image', pdf: 'PDF document', docx: 'Word document' } as const;

/**
 * The note appended to a user message with attachments, for the model: each file by name, images
 * as shown, documents with the fileId and the tool that reads them.
 */
export function attachmentNote(files: readonly MessageFile[], imagesShown: boolean): string {
  const lines = files.map((f) =>
    f.kind === 'image'
      ? `- ${f.fileName}: ${KIND_LABEL.image} (${imagesShown ? 'attached above' : 'shown in an earlier turn'})`
      : `- ${f.fileName}: ${KIND_LABEL[f.kind]}, fileId ${f.fileId}, read it with the ${DOCUMENT_TOOLS[f.kind].name} tool`,
  );
  return `\n\n[Attached files]\n${lines.join('\n')}`;
}

/** The document tools a conversation needs, for the documents it has. */
export function documentToolsFor(documents: readonly MessageFile[]): ModelToolSpec[] {
  const kinds = new Set(documents.map((d) => d.kind));
  return (['pdf', 'docx'] as const).filter((k) => kinds.has(k)).map((k) => DOCUMENT_TOOLS[k]);
}

export function isDocumentTool(name: string): boolean {
  return name === READ_PDF || name === READ_DOCUMENT;
}

/** Requests the input must be rejected with: a 400 before the turn starts. */
export function requireUserMessageFor(files: readonly FileReference[], hasUserMessage: boolean): void {
  if (files.length > 0 && !hasUserMessage) throw badRequest('files are attached to the new user message: the request has none');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `readPDF` / `readDocument`: the extracted text of one of the conversation's documents. Waits up to
 * 30 s for OCR still running. Every failure is a tool error the model can explain, never a failed turn.
 */
export async function readDocumentTool(
  deps: AttachmentDeps,
  documents: ReadonlyMap<string, MessageFile>,
  call: { name: string; input: Record<string, unknown> },
  waitMs = OCR_WAIT_MS,
): Promise<ToolCallResult> {
  const fileId = typeof call.input.fileId === 'string' ? call.input.fileId : '';
  const doc = documents.get(fileId);
  if (!doc) return { content: `No attached document has fileId "${fileId.slice(0, 100)}"`, isError: true };
  const expected = DOCUMENT_TOOLS[doc.kind as 'pdf' | 'docx']?.name;
  if (expected !== call.name) return { content: `${doc.fileName} is not read with ${call.name}: use ${expected}`, isError: true };
  const deadline = Date.now() + waitMs;
  let file = await deps.files.get(fileId);
  for (let pause = 250; file?.extraction === 'ocr_pending' && Date.now() < deadline; pause = Math.min(pause * 2, 2000)) {
    await sleep(Math.min(pause, Math.max(0, deadline - Date.now())));
    file = await deps.files.get(fileId);
  }
  if (!file) return { content: `${doc.fileName} is no longer available`, isError: true };
  if (file.extraction === 'ocr_pending') return { content: `${doc.fileName} is still being read with OCR; try again shortly`, isError: true };
  if (file.extraction !== 'ready' || !file.textKey) return { content: `The text of ${doc.fileName} could not be read`, isError: true };
  const text = (await deps.objects.get(file.textKey))?.toString('utf8');
  if (text === undefined) return { content: `The text of ${doc.fileName} is missing`, isError: true };
  if (text.length <= MAX_TOOL_TEXT_CHARS) return { content: text, isError: false };
  return { content: `${text.slice(0, MAX_TOOL_TEXT_CHARS)}\n[truncated: ${text.length - MAX_TOOL_TEXT_CHARS} more characters]`, isError: false };
}
