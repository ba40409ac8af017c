/**
 * One upload of area B (`POST /chat/files`): the type by extension, checked against the real leading
 * bytes; documents read once (password-protected or corrupt ones refused with 422); then the record
 * (pending), the bytes, the extracted text or the start of OCR, and the record made ready. Nothing
 * unverified is stored as accepted, and a crash between the writes leaves only a pending record that
 * no reference can reach and the file-cleanup job removes.
 */
import { sha256Hex } from '../../kernel/domain/digest';
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
import { type FilePorts, StorageUnavailableError } from '../../conversations/app/file-ports';
import type { Telemetry } from '../../kernel/app/kernel-ports';
import type { ChatPrincipal } from '../../tenancy/app/admit-request';
import { requireChatSessionOfApp } from './record-session-activity';

export type UploadDeps = Pick<ChatDeps, 'files' | 'sessions' | 'clock' | 'ids'> & FilePorts & Telemetry;

/** Seconds a client should wait before retrying an upload refused because storage is down. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

const CFB_MIME = 'application/x-cfb';
const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

const accepted = Object.keys(ACCEPTED_EXTENSIONS).join(', ');

function unprocessable(message: string): DomainError {
  return new DomainError('unprocessable', message);
}

/**
 * Checks the bytes against the extension's type. A `.docx` that is a ZIP but not a readable Word
 * document, or an OLE2 compound file (a legacy `.doc`, or a password-protected `.docx`, which Word
 * stores in such a container), is identified but unreadable: 422. Any other mismatch is a 400.
 */
async function verifyContent(deps: UploadDeps, kind: StoredFile['kind'], extension: string, mimeType: string, bytes: Buffer): Promise<void> {
  const detected = await deps.sniffer.mimeOf(bytes);
  if (detected === mimeType) return;
  if (kind === 'docx') {
    if (detected === CFB_MIME) {
      throw unprocessable(
        bytes.includes(ENCRYPTED_PACKAGE)
          ? 'The .docx file is password-protected: remove the password in Word and upload it again'
          : 'The .docx file is a legacy binary Word document (.doc): save it as .docx and upload it again',
      );
    }
    if (bytes.subarray(0, 4).equals(ZIP_LOCAL_HEADER)) throw unprocessable('The .docx file is corrupt and cannot be read');
  }
  throw badRequest(`The file's content does not match its extension ${extension}${detected ? ` (the bytes are ${detected})` : ''}`);
}

function storageDown(_err: unknown): never {
  throw new TemporarilyUnavailableError(
    `File storage is temporarily unavailable: retry in ${STORAGE_RETRY_AFTER_SECONDS} seconds`,
    STORAGE_RETRY_AFTER_SECONDS,
  );
}

async function stored<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof StorageUnavailableError) storageDown(err);
    throw err;
  }
}

export async function uploadFile(
  deps: UploadDeps,
  input: { readonly principal: ChatPrincipal; readonly fileName: string; readonly bytes: Buffer; readonly sessionId?: string },
): Promise<StoredFile> {
  const { principal, fileName, bytes } = input;
  const type = acceptedTypeOf(fileName);
  if (!type) throw badRequest(`Unsupported file type: "${fileName.slice(0, 200)}". Accepted extensions: ${accepted}`);
  if (bytes.length === 0) throw badRequest('The file is empty');
  if (bytes.length > MAX_UPLOAD_BYTES) throw badRequest(`The file is over the ${MAX_UPLOAD_LABEL} upload limit`);
  await verifyContent(deps, type.kind, type.extension, type.mimeType, bytes);

  let consumerId: string | null = null;
  if (input.sessionId !== undefined) {
    consumerId = (await requireChatSessionOfApp(deps, input.sessionId, principal.app.id))?.consumerId ?? null;
  }

  const inspection = type.kind === 'pdf' ? await deps.documents.inspectPdf(bytes) : type.kind === 'docx' ? await deps.documents.inspectDocx(bytes) : undefined;
  if (inspection?.status === 'encrypted' || inspection?.status === 'corrupt') throw unprocessable(inspection.message);

  const id = deps.ids.uuid();
  const file: StoredFile = {
    id,
    orgId: principal.org.id,
    appId: principal.app.id,
    uploaderKeyId: principal.keyId,
    consumerId,
    fileName,
    mimeType: type.mimeType,
    kind: type.kind,
    size: bytes.length,
    sha256: sha256Hex(bytes),
    storageKey: storageKeyOf(principal.app.id, id),
    status: 'pending',
    // Set before OCR starts, so a completion that arrives before the record is ready is never overwritten.
    extraction: inspection?.status === 'no_text' ? 'ocr_pending' : 'none',
    textKey: null,
    // Pages of a PDF; a DOCX has no fixed pages (its layout happens when it is rendered).
    pages: type.kind === 'pdf' && inspection && 'pages' in inspection ? inspection.pages : null,
    ocrJobId: null,
    createdAtUs: deps.clock.nowUs(),
    referencedAtUs: null,
  };
  await deps.files.create(file);
  await stored(() => deps.objects.put(file.storageKey, bytes, file.mimeType));

  let extraction: Pick<StoredFile, 'extraction' | 'textKey' | 'pages' | 'ocrJobId'> = { extraction: 'none', textKey: null, pages: file.pages, ocrJobId: null };
  if (inspection?.status === 'text') {
    const textKey = textKeyOf(file.appId, id);
    await stored(() => deps.objects.put(textKey, Buffer.from(inspection.text, 'utf8'), 'text/plain; charset=utf-8'));
    extraction = { ...extraction, extraction: 'ready', textKey };
  } else if (inspection?.status === 'no_text') {
    let jobId: string;
    try {
      ({ jobId } = await deps.ocr.start({ fileId: id, storageKey: file.storageKey }));
    } catch (err) {
      deps.logger.error('OCR could not be started', { fileId: id, error: String(err) });
      throw new TemporarilyUnavailableError(
        `Text recognition is temporarily unavailable: retry in ${STORAGE_RETRY_AFTER_SECONDS} seconds`,
        STORAGE_RETRY_AFTER_SECONDS,
      );
    }
    extraction = { ...extraction, extraction: 'ocr_pending', ocrJobId: jobId };
  }
  await deps.files.markReady(id, extraction);
  return { ...file, ...extraction, status: 'ready' };
}
