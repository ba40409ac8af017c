/**
 * Text extraction for uploads: PDF with unpdf (the serverless build of PDF.js: pure JavaScript, no
 * canvas, no worker thread (PDF.js runs its "fake worker" in-process), bundles with esbuild), DOCX with
 * mammoth. Each outcome the upload needs is told apart: text, no text layer (OCR), password-protected,
 * corrupt. Messages are written for the API client.
 *
 * mammoth is CommonJS: the default import is its `module.exports` under Node's ESM loader (tsx), in
 * vitest and in an esbuild ESM bundle alike.
 *
 * Both libraries are imported on the first document read, not with the module: together they are most
 * of a bundle that holds them (unpdf alone is 1.6 MB), and a Responses turn or an upload that carries
 * no document never pays for evaluating them at a cold start.
 */
import type { getDocumentProxy as GetDocumentProxy } from 'unpdf';
import type { DocumentInspection, DocumentParser } from '../../conversations/app/file-ports';

export const ENCRYPTED_PDF_MESSAGE = 'The PDF is password-protected: remove the password and upload it again';
export const CORRUPT_PDF_MESSAGE = 'The PDF is corrupt or truncated and cannot be read';
export const CORRUPT_DOCX_MESSAGE = 'The .docx file is corrupt or truncated and cannot be read';
export const CFB_DOCX_MESSAGE =
  'The .docx file is a legacy Word document (.doc) or password-protected: save it as a .docx without a password and upload it again';

const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export class PdfDocxDocumentParser implements DocumentParser {
  /**
   * `text` when any page has a text layer (pages joined by "\n\n", each trimmed), `no_text` when none
   * has (a scan: OCR reads it), `encrypted` when it needs a user password (a PDF with only an owner
   * password opens and reads normally), `corrupt` when PDF.js cannot read the document or a page.
   */
  async inspectPdf(bytes: Uint8Array): Promise<DocumentInspection> {
    const { extractText, getDocumentProxy } = await import('unpdf');
    let doc: Awaited<ReturnType<typeof GetDocumentProxy>>;
    try {
      // A copy: PDF.js takes ownership of (detaches) the buffer it is given. verbosity 0: no console noise.
      doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    } catch (err) {
      if ((err as Error | undefined)?.name === 'PasswordException') return { status: 'encrypted', message: ENCRYPTED_PDF_MESSAGE };
      return { status: 'corrupt', message: CORRUPT_PDF_MESSAGE };
    }
    try {
      const { totalPages, text } = await extractText(doc, { mergePages: false });
      const pages = text.map((t) => t.trim());
      if (pages.every((t) => t.length === 0)) return { status: 'no_text', pages: totalPages };
      return { status: 'text', text: pages.join('\n\n'), pages: totalPages };
    } catch {
      return { status: 'corrupt', message: CORRUPT_PDF_MESSAGE };
    } finally {
      await doc.destroy().catch(() => undefined);
    }
  }

  /**
   * The raw text (paragraphs joined by "\n\n", trimmed; possibly empty) as `text`, with `pages` 1: a
   * DOCX has no fixed pages (they exist only once a word processor lays it out). `corrupt` when it is
   * not a readable Word package; an OLE2 container (legacy .doc, or a password-protected .docx, which
   * the upload refuses before this from its type) gets a message that says so.
   */
  async inspectDocx(bytes: Uint8Array): Promise<DocumentInspection> {
    if (CFB_SIGNATURE.every((b, i) => bytes[i] === b)) return { status: 'corrupt', message: CFB_DOCX_MESSAGE };
    const expanded = declaredUncompressedSize(bytes);
    if (expanded !== undefined && expanded > MAX_DOCX_EXPANDED_BYTES) return { status: 'corrupt', message: EXPANDS_TOO_FAR_MESSAGE };
    const { default: mammoth } = await import('mammoth');
    try {
      const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
      return { status: 'text', text: value.trim(), pages: 1 };
    } catch {
      return { status: 'corrupt', message: CORRUPT_DOCX_MESSAGE };
    }
  }
}

/** A DOCX whose parts expand beyond this is refused before mammoth inflates it (a ZIP bomb guard). */
export const MAX_DOCX_EXPANDED_BYTES = 256 * 1024 * 1024;
export const EXPANDS_TOO_FAR_MESSAGE = 'The .docx file expands to more than 256 MB and cannot be read';

/**
 * The sum of the uncompressed sizes the ZIP's central directory declares, or undefined when there is
 * no readable central directory (mammoth then reports the file corrupt). Declared sizes can lie, so
 * this bounds honest and naive bombs; mammoth's own reading is the rest of the guard.
 */
export function declaredUncompressedSize(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let eocd = bytes.length - 22; eocd >= Math.max(0, bytes.length - 22 - 0xffff); eocd--) {
    if (view.getUint32(eocd, true) !== 0x06054b50) continue;
    const entries = view.getUint16(eocd + 10, true);
    let at = view.getUint32(eocd + 16, true);
    let total = 0;
    for (let i = 0; i < entries; i++) {
      if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return undefined;
      const size = view.getUint32(at + 24, true);
      // 0xffffffff: the real size is in a ZIP64 extra field; count it as the largest 32-bit size.
      total += size;
      at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
    return total;
  }
  return undefined;
}
