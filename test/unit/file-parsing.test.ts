/**
 * The upload fixtures are what they claim (file-type agrees), the document parser tells text, no text
 * layer, password-protected and corrupt apart, and the local OCR engine reads a scanned page back.
 */
import { fileTypeFromBuffer } from 'file-type';
import { describe, expect, it } from 'vitest';
import { PdfDocxDocumentParser } from '../../functions/adapters/pdf-docx-document-parser';
import { TesseractOcrEngine } from '../../functions/adapters/tesseract-ocr-engine';
import { DOCX_MIME } from '../../functions/domain/file';
import type { OcrCompletion } from '../../functions/ports/files';
import { corruptDocx, docx, encryptedDocx, encryptedPdf, jpeg, legacyDoc, png, scannedPdf, textPdf, truncatedPdf } from '../support/file-fixtures';

describe('upload fixtures', () => {
  it.each([
    ['jpeg', jpeg(), 'image/jpeg'],
    ['png', png(3, 2), 'image/png'],
    ['textPdf', textPdf('x'), 'application/pdf'],
    ['scannedPdf', scannedPdf(['A']), 'application/pdf'],
    ['encryptedPdf', encryptedPdf(), 'application/pdf'],
    ['truncatedPdf', truncatedPdf(), 'application/pdf'],
    ['docx', docx(['x']), DOCX_MIME],
    ['corruptDocx', corruptDocx(), 'application/zip'],
    ['legacyDoc', legacyDoc(), 'application/x-cfb'],
    ['encryptedDocx', encryptedDocx(), 'application/x-cfb'],
  ])('%s is detected as %s', async (_name, bytes, mime) => {
    expect((await fileTypeFromBuffer(bytes))?.mime).toBe(mime);
  });
});

describe('PdfDocxDocumentParser', () => {
  const parser = new PdfDocxDocumentParser();
  it('reads the text layer of every page', async () => {
    expect(await parser.inspectPdf(textPdf(['First page (with parentheses)', 'Second page']))).toEqual({ status: 'text', text: 'First page (with parentheses)\n\nSecond page', pages: 2 });
  });
  it('finds no text layer in a scanned PDF', async () => {
    expect(await parser.inspectPdf(scannedPdf(['SCAN'], 3))).toEqual({ status: 'no_text', pages: 3 });
  });
  it('tells a password-protected PDF from a corrupt one', async () => {
    expect(await parser.inspectPdf(encryptedPdf())).toMatchObject({ status: 'encrypted', message: expect.stringMatching(/password/) });
    expect(await parser.inspectPdf(truncatedPdf())).toMatchObject({ status: 'corrupt', message: expect.stringMatching(/corrupt/) });
    expect(await parser.inspectPdf(Buffer.from('%PDF-1.7 nothing else'))).toMatchObject({ status: 'corrupt' });
  });
  it('reads a DOCX and refuses a corrupt one', async () => {
    expect(await parser.inspectDocx(docx(['Quarterly report', 'Revenue & costs']))).toEqual({ status: 'text', text: 'Quarterly report\n\nRevenue & costs', pages: 1 });
    expect(await parser.inspectDocx(corruptDocx())).toMatchObject({ status: 'corrupt' });
  });
});

describe('TesseractOcrEngine (offline)', () => {
  it('reads every page of a scanned PDF and announces the job like Textract', async () => {
    const objects = new Map([['scan', Buffer.from(scannedPdf(['SCANNED INVOICE 4711', 'TOTAL 99 EUR'], 2))]]);
    const notices: OcrCompletion[] = [];
    const engine = new TesseractOcrEngine({
      objects: { get: async (k) => objects.get(k), put: async () => undefined, deletePrefix: async () => undefined },
      bucket: 'uploads',
      notify: async (n) => void notices.push(n),
    });
    try {
      const { jobId } = await engine.start({ fileId: 'file-1', storageKey: 'scan' });
      while (notices.length === 0) await new Promise((r) => setTimeout(r, 50));
      expect(notices).toEqual([{ JobId: jobId, Status: 'SUCCEEDED', API: 'StartDocumentTextDetection', JobTag: 'file-1', Timestamp: expect.any(Number), DocumentLocation: { S3ObjectName: 'scan', S3Bucket: 'uploads' } }]);
      expect(await engine.results(jobId)).toEqual({ status: 'SUCCEEDED', text: 'SCANNED INVOICE 4711\nTOTAL 99 EUR\n\nSCANNED INVOICE 4711 2\nTOTAL 99 EUR', pages: 2 });
      const missing = await engine.start({ fileId: 'file-2', storageKey: 'gone' });
      while (notices.length === 1) await new Promise((r) => setTimeout(r, 50));
      expect(notices[1]).toMatchObject({ JobId: missing.jobId, Status: 'FAILED', JobTag: 'file-2' });
      expect(await engine.results('no-such-job')).toMatchObject({ status: 'FAILED' });
    } finally {
      await engine.close();
    }
  }, 60_000);
});
