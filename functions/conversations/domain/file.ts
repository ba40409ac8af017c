/**
 * Files uploaded through `POST /chat/files` (area B) and attached to chat turns by reference.
 * A leaf module: no runtime imports, so the CDK app may load it.
 *
 * Sizes: the spec's "20 MB" is read as 20 MiB (20,971,520 bytes), the larger reading, so that no file
 * any operating system labels "20 MB" is refused (docs/adr/0015-chat-file-uploads.md).
 */
import type { Micros } from '../../kernel/domain/time';

export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** How the limit reads in a refusal. */
export const MAX_UPLOAD_LABEL = '20 MB';

/**
 * What a multipart body may add around the file (boundaries, part headers, other small fields)
 * before the body is cut off unread: a `Content-Length` above file limit + this is refused at once.
 */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export type FileKind = 'image' | 'pdf' | 'docx';

export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The spec's accepted types, by extension (lower case, with the dot). Nothing else is accepted. */
export const ACCEPTED_EXTENSIONS = {
  '.jpg': { mimeType: 'image/jpeg', kind: 'image' },
  '.jpeg': { mimeType: 'image/jpeg', kind: 'image' },
  '.png': { mimeType: 'image/png', kind: 'image' },
  '.pdf': { mimeType: 'application/pdf', kind: 'pdf' },
  '.docx': { mimeType: DOCX_MIME, kind: 'docx' },
} as const satisfies Record<string, { mimeType: string; kind: FileKind }>;

export type AcceptedExtension = keyof typeof ACCEPTED_EXTENSIONS;

/** The accepted type of a file name, or undefined (an unsupported extension: 400). */
export function acceptedTypeOf(fileName: string): { readonly extension: AcceptedExtension; readonly mimeType: string; readonly kind: FileKind } | undefined {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return undefined;
  const extension = fileName.slice(dot).toLowerCase();
  if (!Object.hasOwn(ACCEPTED_EXTENSIONS, extension)) return undefined;
  const t = ACCEPTED_EXTENSIONS[extension as AcceptedExtension];
  return { extension: extension as AcceptedExtension, mimeType: t.mimeType, kind: t.kind };
}

/**
 * How far the text of a document is: `none` for images (no OCR for images), `ready` when the text is
 * stored, `ocr_pending` while OCR of a PDF without a text layer runs, `ocr_failed` when it failed.
 */
export type ExtractionState = 'none' | 'ready' | 'ocr_pending' | 'ocr_failed';

/**
 * The file record. It is written `pending` before the bytes go to object storage and becomes `ready`
 * after they are there: only a ready file can be referenced, so a crash between the writes leaves
 * nothing a chat turn can reach (the cleanup job removes what it left behind).
 */
export interface StoredFile {
  readonly id: string;
  readonly orgId: string;
  readonly appId: string;
  /** The chat key that uploaded it. */
  readonly uploaderKeyId: string;
  /** The consumer of the session named at upload time (`X-Chat-Session-ID`), when known. */
  readonly consumerId: string | null;
  readonly fileName: string;
  readonly mimeType: string;
  readonly kind: FileKind;
  readonly size: number;
  /** Hex SHA-256 of the bytes. */
  readonly sha256: string;
  /** Object key of the bytes in the uploads bucket. */
  readonly storageKey: string;
  /** `purging`: its session or app was removed; the file-cleanup job removes bytes and record. */
  readonly status: 'pending' | 'ready' | 'purging';
  readonly extraction: ExtractionState;
  /** Object key of the extracted text, once `extraction` is `ready`. */
  readonly textKey: string | null;
  /** Pages of a PDF. */
  readonly pages: number | null;
  /** The OCR job of a PDF without a text layer. */
  readonly ocrJobId: string | null;
  readonly createdAtUs: Micros;
  /** First time a chat turn referenced it; null until then (the cleanup job's criterion). */
  readonly referencedAtUs: Micros | null;
}

/** The 201 body of an upload. */
export interface UploadedFileView {
  readonly fileId: string;
  readonly fileName: string;
  readonly mimeType: string;
  readonly size: number;
}

export function uploadedFileView(f: StoredFile): UploadedFileView {
  return { fileId: f.id, fileName: f.fileName, mimeType: f.mimeType, size: f.size };
}

/** Object keys: bytes and extracted text of a file live under its app, so an app's files share a prefix. */
export function storageKeyOf(appId: string, fileId: string): string {
  return `files/${appId}/${fileId}/original`;
}

export function textKeyOf(appId: string, fileId: string): string {
  return `files/${appId}/${fileId}/text.txt`;
}

/** Files uploaded and never referenced by a chat turn are removed after this long (ADR 0015). */
export const UNREFERENCED_FILE_RETENTION_HOURS = 24;

/** How long `readPDF` waits for OCR still running (the spec: OCR can take 15–30 s). */
export const OCR_WAIT_MS = 30_000;
