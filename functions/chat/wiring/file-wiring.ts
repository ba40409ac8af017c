/**
 * The file ports of the functions that read or store files from bytes at hand (chat turns, the
 * Responses API's inline files, the upload route through upload-wiring.ts): the bucket, file-type,
 * the document parser and the OCR engine.
 */
import { FileTypeSniffer } from '../adapters/file-type-sniffer';
import { PdfDocxDocumentParser } from '../adapters/pdf-docx-document-parser';
import type { FilePorts, OcrEngine } from '../../conversations/app/file-ports';
import { buildObjectStore } from '../../conversations/object-store-wiring';
import { buildOcrEngine, type FileWiringOptions } from './ocr-wiring';

export function buildFilePorts(opts: FileWiringOptions, ocr: OcrEngine = buildOcrEngine(opts)): FilePorts {
  return { objects: buildObjectStore(opts), sniffer: new FileTypeSniffer(), documents: new PdfDocxDocumentParser(), ocr };
}
