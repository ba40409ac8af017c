/**
 * The steps of one upload of area B (`POST /chat/files`), shared by the upload read as it arrives
 * (receive-upload.ts) and the one whose bytes are already at hand (upload-file.ts): the type by
 * extension, checked against the real leading bytes; documents read once (password-protected or
 * corrupt ones refused with 422); the record; the extracted text or the start of OCR; the record made
 * ready. Nothing unverified is stored as accepted, and a crash between the writes leaves only a pending
 * record that no reference can reach and the file-cleanup job removes.
 */
import { DomainError, TemporarilyUnavailableError, badRequest } from '../../kernel/domain/errors';
import {
  ACCEPTED_EXTENSIONS,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_LABEL,
  acceptedTypeOf,
  storageKeyOf,
  textKeyOf,
  type StoredFile,
} from '../../conversations/domain/file';
import type { ChatDeps } from './chat-ports';
import { type DocumentInspection, type FilePorts, StorageUnavailableError } from '../../conversations/app/file-ports';
import type { Telemetry } from '../../kernel/app/kernel-ports';
import type { ChatPrincipal } from '../../tenancy/app/admit-request';

export type UploadDeps = Pick<ChatDeps, 'files' | 'sessions' | 'clock' | 'ids'> & FilePorts & Telemetry;

/** An accepted type: the file's extension, its MIME type and kind. */
export type UploadType = NonNullable<ReturnType<typeof acceptedTypeOf>>;

/** Seconds a client should wait before retrying an upload refused because storage is down. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

const CFB_MIME = 'application/x-cfb';
const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

const accepted = Object.keys(ACCEPTED_EXTENSIONS).join(', ');

function unprocessable(message: string): DomainError {
  return new DomainError('unprocessable', message);
}

/** The type of the file's name, checked with its size: an unsupported extension, an empty file or one over the limit is a 400. */
export function acceptedUpload(fileName: string, size: number): UploadType {
  const type = acceptedTypeOf(fileName);
  if (!type) throw badRequest(`Unsupported file type: "${fileName.slice(0, 200)}". Accepted extensions: ${accepted}`);
  if (size === 0) throw badRequest('The file is empty');
  if (size > MAX_UPLOAD_BYTES) throw badRequest(`The file is over the ${MAX_UPLOAD_LABEL} upload limit`);
  return type;
}

/**
 * Checks what the bytes are (`detected`) against the extension's type. A `.docx` that is a ZIP but not
 * a readable Word document, or an OLE2 compound file (a legacy `.doc`, or a password-protected `.docx`,
 * which Word stores in such a container), is identified but unreadable: 422. Any other mismatch is a
 * 400. `bytes` are the whole file's, needed for a `.docx` only.
 */
export function refuseMismatch(type: UploadType, detected: string | undefined, bytes: Buffer | undefined): void {
  if (detected === type.mimeType) return;
  if (type.kind === 'docx' && bytes) {
    if (detected === CFB_MIME) {
      throw unprocessable(
        bytes.includes(ENCRYPTED_PACKAGE)
          ? 'The .docx file is password-protected: remove the password in Word and upload it again'
          : 'The .docx file is a legacy binary Word document (.doc): save it as .docx and upload it again',
      );
    }
    if (bytes.subarray(0, 4).equals(ZIP_LOCAL_HEADER)) throw unprocessable('The .docx file is corrupt and cannot be read');
  }
  throw badRequest(`The file's content does not match its extension ${type.extension}${detected ? ` (the bytes are ${detected})` : ''}`);
}

/** A document read once: its text, or that it has none (OCR); a password-protected or corrupt one is a 422. Images are not read. */
export async function inspectDocument(deps: Pick<FilePorts, 'documents'>, kind: UploadType['kind'], bytes: Buffer): Promise<DocumentInspection | undefined> {
  const inspection = kind === 'pdf' ? await deps.documents.inspectPdf(bytes) : kind === 'docx' ? await deps.documents.inspectDocx(bytes) : undefined;
  if (inspection?.status === 'encrypted' || inspection?.status === 'corrupt') throw unprocessable(inspection.message);
  return inspection;
}

/** What reading a document tells the record: whether OCR is to run, and a PDF's pages. */
export function inspected(kind: UploadType['kind'], inspection: DocumentInspection | undefined): Pick<StoredFile, 'extraction' | 'pages'> {
  return {
    // Set before OCR starts, so a completion that arrives before the record is ready is never overwritten.
    extraction: inspection?.status === 'no_text' ? 'ocr_pending' : 'none',
    // Pages of a PDF; a DOCX has no fixed pages (its layout happens when it is rendered).
    pages: kind === 'pdf' && inspection && 'pages' in inspection ? inspection.pages : null,
  };
}

/** The record of a new upload, pending. */
export function pendingFile(
  deps: Pick<UploadDeps, 'ids' | 'clock'>,
  input: {
    readonly principal: ChatPrincipal;
    readonly fileName: string;
    readonly type: UploadType;
    readonly size: number;
    readonly sha256: string;
    readonly consumerId: string | null;
    readonly inspection: DocumentInspection | undefined;
  },
): StoredFile {
  const { principal, type } = input;
  const id = deps.ids.uuid();
  return {
    id,
    orgId: principal.org.id,
    appId: principal.app.id,
    uploaderKeyId: principal.keyId,
    consumerId: input.consumerId,
    fileName: input.fileName,
    mimeType: type.mimeType,
    kind: type.kind,
    size: input.size,
    sha256: input.sha256,
    storageKey: storageKeyOf(principal.app.id, id),
    status: 'pending',
    ...inspected(type.kind, input.inspection),
    textKey: null,
    ocrJobId: null,
    createdAtUs: deps.clock.nowUs(),
    referencedAtUs: null,
  };
}

/** Object storage down (no answer, 5xx, throttling) is a 503 with Retry-After. */
export function storageDown(): never {
  throw new TemporarilyUnavailableError(
    `File storage is temporarily unavailable: retry in ${STORAGE_RETRY_AFTER_SECONDS} seconds`,
    STORAGE_RETRY_AFTER_SECONDS,
  );
}

export async function stored<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof StorageUnavailableError) storageDown();
    throw err;
  }
}

/**
 * Once the bytes are stored: the document's text, or the start of OCR, then the record made ready
 * (with what only the bytes told, for a record written before they arrived).
 */
export async function finishUpload(
  deps: UploadDeps,
  file: StoredFile,
  inspection: DocumentInspection | undefined,
  received?: Pick<StoredFile, 'size' | 'sha256' | 'consumerId'>,
): Promise<StoredFile> {
  let extraction: Pick<StoredFile, 'extraction' | 'textKey' | 'pages' | 'ocrJobId'> = { extraction: 'none', textKey: null, pages: file.pages, ocrJobId: null };
  if (inspection?.status === 'text') {
    const textKey = textKeyOf(file.appId, file.id);
    await stored(() => deps.objects.put(textKey, Buffer.from(inspection.text, 'utf8'), 'text/plain; charset=utf-8'));
    extraction = { ...extraction, extraction: 'ready', textKey };
  } else if (inspection?.status === 'no_text') {
    // A record written before its bytes were read says `none`: it says `ocr_pending` before OCR starts.
    if (received) await deps.files.setExtraction(file.id, 'ocr_pending', null);
    let jobId: string;
    try {
      ({ jobId } = await deps.ocr.start({ fileId: file.id, storageKey: file.storageKey }));
    } catch (err) {
      deps.logger.error('OCR could not be started', { fileId: file.id, error: String(err) });
      throw new TemporarilyUnavailableError(
        `Text recognition is temporarily unavailable: retry in ${STORAGE_RETRY_AFTER_SECONDS} seconds`,
        STORAGE_RETRY_AFTER_SECONDS,
      );
    }
    extraction = { ...extraction, extraction: 'ocr_pending', ocrJobId: jobId };
  }
  await deps.files.markReady(file.id, extraction, received);
  return { ...file, ...received, ...extraction, status: 'ready' };
}
