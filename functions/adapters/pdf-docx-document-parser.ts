/**
 * Text extraction for uploads: PDF with unpdf (the serverless build of PDF.js: pure JavaScript, no
 * canvas, bundles with esbuild), DOCX with mammoth. Each outcome the upload needs is told apart:
 * text, no text layer (OCR), password-protected, corrupt.
 */
import mammoth from 'mammoth';
import { extractText, getDocumentProxy } from 'unpdf';
import type { DocumentInspection, DocumentParser } from '../ports/files';

const ENCRYPTED_PDF = 'The PDF is password-protected: remove the password and upload it again';
const CORRUPT_PDF = 'The PDF is corrupt or truncated and cannot be read';
const CORRUPT_DOCX = 'The .docx file is corrupt and cannot be read';

export class PdfDocxDocumentParser implements DocumentParser {
  async inspectPdf(bytes: Uint8Array): Promise<DocumentInspection> {
    let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
    try {
      // A copy: PDF.js takes ownership of (detaches) the buffer it is given. verbosity 0: no console noise.
      doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    } catch (err) {
      if ((err as Error)?.name === 'PasswordException') return { status: 'encrypted', message: ENCRYPTED_PDF };
      return { status: 'corrupt', message: CORRUPT_PDF };
    }
    try {
      const { totalPages, text } = await extractText(doc, { mergePages: false });
      const pages = text.map((t) => t.trim());
      if (pages.every((t) => t.length === 0)) return { status: 'no_text', pages: totalPages };
      return { status: 'text', text: pages.join('\n\n'), pages: totalPages };
    } catch {
      return { status: 'corrupt', message: CORRUPT_PDF };
    } finally {
      await doc.destroy().catch(() => undefined);
    }
  }

  async inspectDocx(bytes: Uint8Array): Promise<DocumentInspection> {
    try {
      const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
      // DOCX has no fixed pages (layout happens when it is rendered): one logical page.
      return { status: 'text', text: value.trim(), pages: 1 };
    } catch {
      return { status: 'corrupt', message: CORRUPT_DOCX };
    }
  }
}
