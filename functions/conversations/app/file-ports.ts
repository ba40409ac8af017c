import type { ExtractionState, FileKind, StoredFile } from '../domain/file';
import type { Micros } from '../../kernel/domain/time';

/** A file attached to a session (the link stored under the session). */
export interface AttachedFile {
  readonly fileId: string;
  readonly kind: FileKind;
}

/**
 * File records in the table (domain/file.ts). Table-only, so the lifecycle functions that remove
 * sessions and apps hold it without an S3 client: they mark files `purging`, and the file-cleanup job
 * (with the bucket grant) removes bytes and records.
 */
export interface FileStore {
  /** Writes the record `pending` (unreachable by references), listed as unreferenced and under its app. */
  create(file: StoredFile): Promise<void>;
  /** The record while pending or ready; undefined when unknown, purging or removed. */
  get(id: string): Promise<StoredFile | undefined>;
  /** The bytes are stored: the file becomes referencable, with what extraction found. */
  markReady(
    id: string,
    extraction: Pick<StoredFile, 'extraction' | 'textKey' | 'pages' | 'ocrJobId'>,
    /** What only the bytes tell, for a record written before they arrived. */
    received?: Pick<StoredFile, 'size' | 'sha256' | 'consumerId'>,
  ): Promise<void>;
  /** Records the outcome of OCR (`ready` with its text key, or `ocr_failed`). */
  setExtraction(id: string, extraction: ExtractionState, textKey: string | null): Promise<void>;
  /**
   * Attaches ready files to a session: a link under the session (so removing the session finds them)
   * and the file's first reference time (never moved; the file leaves the unreferenced list).
   */
  attach(sessionId: string, files: readonly Pick<StoredFile, 'id' | 'kind'>[], atUs: Micros): Promise<void>;
  /** The files attached to a session. */
  listAttached(sessionId: string): Promise<AttachedFile[]>;
  /** Marks every file attached to the session for removal (unreachable at once). Idempotent. */
  releaseSession(sessionId: string, atUs: Micros): Promise<void>;
  /** Marks every file of the app for removal. Idempotent. */
  releaseApp(appId: string, atUs: Micros): Promise<void>;
  /**
   * Files to remove, oldest first: those marked for removal, and those never referenced (pending ones
   * included) created before `unreferencedBeforeUs`.
   */
  listRemovable(unreferencedBeforeUs: Micros, limit: number): Promise<StoredFile[]>;
  /** Removes the record. Idempotent. */
  remove(id: string): Promise<void>;
}

/** Object storage of file bytes and extracted text (S3; s3rver locally). */
export interface ObjectStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** The object's bytes; undefined when it does not exist. */
  get(key: string): Promise<Buffer | undefined>;
  /** Removes every object under `prefix`. Idempotent. */
  deletePrefix(prefix: string): Promise<void>;
}

/**
 * One object written as its bytes arrive, in a single pass: what has arrived goes out while the rest is
 * still coming, so the whole object is never held. Nothing is stored unless `end` resolves.
 */
export interface ObjectWriter {
  /** Takes the next bytes; resolves once it can take more (the caller stops reading until then). */
  write(bytes: Buffer): Promise<void>;
  /** Every byte was given: resolves once the object is stored. */
  end(): Promise<void>;
  /** Gives the object up: nothing of it stays. Never throws. */
  abort(): Promise<void>;
}

/** Object storage that also takes an object as a stream of unknown length (the upload route). */
export interface StreamingObjectStore extends ObjectStore {
  writer(key: string, contentType: string): ObjectWriter;
}

/** Object storage is unreachable or refused the request: the upload answers 503 with `Retry-After`. */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`object storage unavailable: ${String((cause as Error)?.message ?? cause)}`);
    this.name = 'StorageUnavailableError';
  }
}

/** What reading a document found. */
export type DocumentInspection =
  | { readonly status: 'text'; readonly text: string; readonly pages: number }
  /** A PDF whose pages carry no text layer (scanned): OCR reads it. */
  | { readonly status: 'no_text'; readonly pages: number }
  | { readonly status: 'encrypted'; readonly message: string }
  | { readonly status: 'corrupt'; readonly message: string };

/** Text extraction from the bytes of an accepted document type (unpdf for PDF, mammoth for DOCX). */
export interface DocumentParser {
  inspectPdf(bytes: Uint8Array): Promise<DocumentInspection>;
  inspectDocx(bytes: Uint8Array): Promise<DocumentInspection>;
}

/** The type a file's leading bytes say it is (file-type), as a MIME type; undefined when unknown. */
export interface ContentSniffer {
  mimeOf(bytes: Uint8Array): Promise<string | undefined>;
  /**
   * The same answer from the file's first bytes and its size alone, or `null` when the answer would
   * look at bytes past `start` (the caller then asks `mimeOf` with all of them).
   */
  mimeOfStart(start: Uint8Array, size: number): Promise<{ readonly mime: string | undefined } | null>;
}

/** Where OCR reads the PDF from. */
export interface OcrInput {
  readonly fileId: string;
  readonly storageKey: string;
}

export type OcrResult =
  | { readonly status: 'SUCCEEDED'; readonly text: string; readonly pages: number }
  | { readonly status: 'FAILED'; readonly message: string };

/**
 * Asynchronous OCR of a PDF without a text layer. On AWS, Textract's StartDocumentTextDetection with
 * an SNS completion (raw delivery to the OCR queue); locally, tesseract.js, which posts the same
 * completion message to the local OCR queue. The OCR worker (functions/chat/workers/ocr-worker.handler.ts)
 * then fetches `results` and stores the text.
 */
export interface OcrEngine {
  /** Starts OCR; the completion arrives on the OCR queue with `JobTag` = the file id. */
  start(input: OcrInput): Promise<{ readonly jobId: string }>;
  results(jobId: string): Promise<OcrResult>;
}

/**
 * The completion notice on the OCR queue: Textract's SNS message (raw delivery), whose fields the
 * local engine writes too.
 */
export interface OcrCompletion {
  readonly JobId: string;
  readonly Status: 'SUCCEEDED' | 'FAILED' | 'ERROR' | 'PARTIAL_SUCCESS';
  readonly API: string;
  readonly JobTag?: string;
  readonly Timestamp?: number;
  readonly DocumentLocation?: { readonly S3ObjectName?: string; readonly S3Bucket?: string };
}

/** Ports of the file upload path and of the chat turns that read attachments (the file records are a ConversationPort). */
export interface FilePorts {
  readonly objects: ObjectStore;
  readonly sniffer: ContentSniffer;
  readonly documents: DocumentParser;
  readonly ocr: OcrEngine;
}
