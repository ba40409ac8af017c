/**
 * The document parser tells the four outcomes apart on the generated fixtures: text (what was written
 * comes back), no text layer (a scan, for OCR), password-protected, corrupt.
 */
import { describe, expect, it } from 'vitest';
import { PdfDocxDocumentParser } from '../../functions/chat/adapters/pdf-docx-document-parser';
import {
  bytesOfSize,
  corruptDocx,
  docx,
  encryptedDocx,
  encryptedPdf,
  jpeg,
  legacyDoc,
  scannedPdf,
  textPdf,
  truncatedDocx,
  truncatedPdf,
} from '../support/file-fixtures';

const parser = new PdfDocxDocumentParser();

describe('PdfDocxDocumentParser.inspectPdf', () => {
  it('reads the text layer: what was written, pages joined by a blank line', async () => {
    expect(await parser.inspectPdf(textPdf('Payment is due within 30 days.'))).toEqual({ status: 'text', text: 'Payment is due within 30 days.', pages: 1 });
    expect(await parser.inspectPdf(textPdf(['First page (with parentheses)', 'Second page\nsecond line', 'Third: 100% \\ done']))).toEqual({
      status: 'text',
      text: 'First page (with parentheses)\n\nSecond page\nsecond line\n\nThird: 100% \\ done',
      pages: 3,
    });
  });

  it('counts the pages of a long text and keeps every line', async () => {
    const pages = Array.from({ length: 12 }, (_, i) => `Page ${i + 1} ${'lorem ipsum '.repeat(30)}`.trim());
    const result = await parser.inspectPdf(textPdf(pages));
    expect(result).toMatchObject({ status: 'text', pages: 12 });
    expect(result.status === 'text' && result.text.replace(/\s+/g, ' ')).toBe(pages.join(' '));
  });

  it('is text when only some pages have a text layer', async () => {
    expect(await parser.inspectPdf(textPdf(['Cover', ' ', 'Appendix']))).toEqual({ status: 'text', text: 'Cover\n\n\n\nAppendix', pages: 3 });
  });

  it.each(['gray', 'bilevel', 'mask'] as const)('finds no text layer in a scanned PDF (%s image)', async (image) => {
    expect(await parser.inspectPdf(scannedPdf(['SCANNED INVOICE 4711', 'TOTAL 99 EUR'], 3, { image }))).toEqual({ status: 'no_text', pages: 3 });
  });

  it('tells a password-protected PDF', async () => {
    expect(await parser.inspectPdf(encryptedPdf())).toEqual({
      status: 'encrypted',
      message: 'The PDF is password-protected: remove the password and upload it again',
    });
  });

  it.each([
    ['a truncated PDF', () => truncatedPdf()],
    ['a PDF header and nothing else', () => Buffer.from('%PDF-1.7\n')],
    ['a PDF header and garbage', () => Buffer.concat([Buffer.from('%PDF-1.4\n'), bytesOfSize(2000)])],
    ['empty bytes', () => new Uint8Array(0)],
    ['a JPEG', () => jpeg()],
  ])('calls %s corrupt', async (_label, make) => {
    expect(await parser.inspectPdf(make())).toEqual({ status: 'corrupt', message: 'The PDF is corrupt or truncated and cannot be read' });
  });

  it('leaves the caller’s bytes usable (PDF.js detaches the buffer it is given)', async () => {
    const bytes = textPdf('kept');
    await parser.inspectPdf(bytes);
    expect(bytes.length).toBeGreaterThan(0);
    expect(await parser.inspectPdf(bytes)).toMatchObject({ status: 'text', text: 'kept' });
  });
});

describe('PdfDocxDocumentParser.inspectDocx', () => {
  it('reads the paragraphs, one page', async () => {
    expect(await parser.inspectDocx(docx(['Quarterly report', 'Revenue & costs <draft>', 'Ünïcödé ✓']))).toEqual({
      status: 'text',
      text: 'Quarterly report\n\nRevenue & costs <draft>\n\nÜnïcödé ✓',
      pages: 1,
    });
  });

  it('reads an empty document as empty text', async () => {
    expect(await parser.inspectDocx(docx([]))).toEqual({ status: 'text', text: '', pages: 1 });
  });

  it.each([
    ['a corrupt DOCX', () => corruptDocx()],
    ['a truncated DOCX', () => truncatedDocx()],
    ['garbage', () => bytesOfSize(500)],
    ['a PDF', () => textPdf('not a docx')],
  ])('calls %s corrupt', async (_label, make) => {
    expect(await parser.inspectDocx(make())).toEqual({ status: 'corrupt', message: 'The .docx file is corrupt or truncated and cannot be read' });
  });

  it.each([
    ['a legacy .doc', () => legacyDoc()],
    ['a password-protected .docx', () => encryptedDocx()],
  ])('calls %s corrupt, saying what it is', async (_label, make) => {
    expect(await parser.inspectDocx(make())).toEqual({
      status: 'corrupt',
      message: expect.stringMatching(/legacy Word document \(\.doc\) or password-protected/),
    });
  });
});

describe('the DOCX expansion guard', () => {
  it('sums the uncompressed sizes the central directory declares, and refuses a DOCX that would expand past 256 MB', async () => {
    const {
      declaredUncompressedSize,
      MAX_DOCX_EXPANDED_BYTES,
      PdfDocxDocumentParser: Parser,
    } = await import('../../functions/chat/adapters/pdf-docx-document-parser');
    const { docx: makeDocx } = await import('../support/file-fixtures');
    const bytes = Buffer.from(makeDocx(['hello']));
    const declared = declaredUncompressedSize(bytes)!;
    expect(declared).toBeGreaterThan(0);
    expect(declared).toBeLessThan(10_000);
    // Rewrite the first central-directory entry's uncompressed size to claim 300 MB.
    const cd = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE(300 * 1024 * 1024, cd + 24);
    expect(declaredUncompressedSize(bytes)!).toBeGreaterThan(MAX_DOCX_EXPANDED_BYTES);
    expect(await new Parser().inspectDocx(bytes)).toEqual({ status: 'corrupt', message: expect.stringMatching(/expands to more than 256 MB/) });
  });
});
