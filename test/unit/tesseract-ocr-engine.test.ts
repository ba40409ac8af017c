/**
 * The local OCR engine (tesseract.js, offline English data) reads scanned PDFs back and announces each
 * job the way Textract does, with the file id as JobTag. The first job pays the worker start (~1.5 s);
 * a page takes ~0.1-0.3 s after that.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { encodeGreyPng } from '../../functions/chat/adapters/grey-png-encoder';
import { toGrey } from '../../functions/chat/adapters/pdfjs-page-images';
import { TesseractOcrEngine } from '../../functions/chat/adapters/tesseract-ocr-engine';
import type { ObjectStore, OcrCompletion } from '../../functions/conversations/app/file-ports';
import { scannedPdf, textPdf } from '../support/file-fixtures';

const INVOICE = ['SCANNED INVOICE 4711', 'TOTAL 99 EUR'];

const objects = new Map<string, Buffer>();
const store: ObjectStore = {
  get: async (key) => objects.get(key),
  put: async (key, body) => void objects.set(key, Buffer.from(body)),
  deletePrefix: async () => undefined,
};
const notices: OcrCompletion[] = [];
const errors: string[] = [];
const engine = new TesseractOcrEngine({
  objects: store,
  bucket: 'uploads',
  notify: async (n) => void notices.push(n),
  logger: { error: (message) => void errors.push(message) },
});

afterAll(() => engine.close());

/** The notice of `jobId`, once it arrived. */
async function noticeOf(jobId: string, timeoutMs = 10_000): Promise<OcrCompletion> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const notice = notices.find((n) => n.JobId === jobId);
    if (notice) return notice;
    if (Date.now() > until) throw new Error(`no notice for ${jobId}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('TesseractOcrEngine (offline)', () => {
  it('reads a scanned invoice back exactly and announces it like Textract', async () => {
    objects.set('files/app/file-1/original', Buffer.from(scannedPdf(INVOICE)));
    const started = Date.now();
    const { jobId } = await engine.start({ fileId: 'file-1', storageKey: 'files/app/file-1/original' });
    expect(Date.now() - started).toBeLessThan(200); // answers at once; the work happens after
    expect(await noticeOf(jobId)).toEqual({
      JobId: jobId,
      Status: 'SUCCEEDED',
      API: 'StartDocumentTextDetection',
      JobTag: 'file-1',
      Timestamp: expect.any(Number),
      DocumentLocation: { S3ObjectName: 'files/app/file-1/original', S3Bucket: 'uploads' },
    });
    const result = await engine.results(jobId);
    expect(result).toMatchObject({ status: 'SUCCEEDED', pages: 1 });
    const lines = result.status === 'SUCCEEDED' ? result.text.split('\n') : [];
    expect(lines).toContain('SCANNED INVOICE 4711');
    expect(lines).toContain('TOTAL 99 EUR');
  }, 15_000);

  it('reads every page, pages joined by a blank line, and 1-bit scans and stencil masks too', async () => {
    objects.set('two-pages', Buffer.from(scannedPdf(INVOICE, 2)));
    objects.set('bilevel', Buffer.from(scannedPdf(INVOICE, 1, { image: 'bilevel' })));
    objects.set('mask', Buffer.from(scannedPdf(INVOICE, 1, { image: 'mask' })));
    // Queued back to back: one worker runs them in order.
    const jobs = await Promise.all(['two-pages', 'bilevel', 'mask'].map((key) => engine.start({ fileId: key, storageKey: key })));
    await Promise.all(jobs.map((j) => noticeOf(j.jobId)));
    expect(notices.filter((n) => jobs.some((j) => j.jobId === n.JobId)).map((n) => n.JobTag)).toEqual(['two-pages', 'bilevel', 'mask']);
    expect(await engine.results(jobs[0]!.jobId)).toEqual({
      status: 'SUCCEEDED',
      text: 'SCANNED INVOICE 4711\nTOTAL 99 EUR\n\nSCANNED INVOICE 4711 2\nTOTAL 99 EUR',
      pages: 2,
    });
    expect(await engine.results(jobs[1]!.jobId)).toEqual({ status: 'SUCCEEDED', text: 'SCANNED INVOICE 4711\nTOTAL 99 EUR', pages: 1 });
    expect(await engine.results(jobs[2]!.jobId)).toEqual({ status: 'SUCCEEDED', text: 'SCANNED INVOICE 4711\nTOTAL 99 EUR', pages: 1 });
  }, 15_000);

  it('succeeds with empty text when a PDF has no images', async () => {
    objects.set('text-only', Buffer.from(textPdf('no images here')));
    const { jobId } = await engine.start({ fileId: 'text-only', storageKey: 'text-only' });
    expect(await noticeOf(jobId)).toMatchObject({ Status: 'SUCCEEDED', JobTag: 'text-only' });
    expect(await engine.results(jobId)).toEqual({ status: 'SUCCEEDED', text: '', pages: 1 });
  }, 15_000);

  it('fails a job, without throwing, when the PDF is gone or unreadable', async () => {
    objects.set('garbage', Buffer.from('%PDF-1.4 garbage'));
    const gone = await engine.start({ fileId: 'file-gone', storageKey: 'missing' });
    const bad = await engine.start({ fileId: 'file-bad', storageKey: 'garbage' });
    expect(await noticeOf(gone.jobId)).toMatchObject({ Status: 'FAILED', JobTag: 'file-gone', API: 'StartDocumentTextDetection' });
    expect(await noticeOf(bad.jobId)).toMatchObject({ Status: 'FAILED', JobTag: 'file-bad' });
    expect(await engine.results(gone.jobId)).toEqual({ status: 'FAILED', message: 'the PDF is no longer stored' });
    expect(await engine.results(bad.jobId)).toMatchObject({ status: 'FAILED', message: expect.stringMatching(/^OCR failed: /) });
    expect(errors).toContain('local OCR failed');
  }, 15_000);

  it('answers FAILED for an unknown job', async () => {
    expect(await engine.results('no-such-job')).toEqual({ status: 'FAILED', message: 'unknown OCR job no-such-job' });
  });

  it('logs a notice that cannot be delivered and carries on', async () => {
    const logged: string[] = [];
    const local = new TesseractOcrEngine({
      objects: store,
      bucket: 'b',
      notify: async () => Promise.reject(new Error('queue down')),
      logger: { error: (m) => void logged.push(m) },
    });
    const { jobId } = await local.start({ fileId: 'f', storageKey: 'missing' });
    await local.close(); // waits for the job
    expect(logged).toEqual(['local OCR notice could not be sent']);
    expect(await local.results(jobId)).toMatchObject({ status: 'FAILED' });
    await expect(local.start({ fileId: 'f', storageKey: 'missing' })).rejects.toThrow(/stopped/);
  });
});

describe('page images', () => {
  it('turns PDF.js image data into grey on white', () => {
    // 1 bit per pixel, rows padded to a byte: 1 is white.
    expect([...toGrey({ width: 3, height: 2, kind: 1, data: Uint8Array.from([0b10100000, 0b01000000]) })!.pixels]).toEqual([255, 0, 255, 0, 255, 0]);
    // A stencil mask: 0 is painted (black).
    expect([...toGrey({ width: 2, height: 1, data: Uint8Array.from([0b01000000]) }, true)!.pixels]).toEqual([0, 255]);
    // RGB by luma; RGBA over white.
    expect([...toGrey({ width: 2, height: 1, kind: 2, data: Uint8Array.from([255, 255, 255, 0, 0, 0]) })!.pixels]).toEqual([255, 0]);
    expect([...toGrey({ width: 2, height: 1, kind: 3, data: Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 255]) })!.pixels]).toEqual([255, 0]);
    expect(toGrey({ width: 2, height: 2, kind: 3, data: 'img_p0_1' })).toBeUndefined();
  });

  it('encodes an 8-bit grey PNG', () => {
    const bytes = encodeGreyPng({ width: 2, height: 1, pixels: Uint8Array.from([0, 255]) });
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20), bytes[24], bytes[25]]).toEqual([2, 1, 8, 0]);
  });
});
