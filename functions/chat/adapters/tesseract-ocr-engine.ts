/**
 * Textract's local twin (the local platform only): OCR of a PDF without a text layer with tesseract.js
 * and the offline English data of `@tesseract.js-data/eng`, no network ever. A scanned page is an
 * image, so each page's images are taken out of the PDF with unpdf's PDF.js (decoded pixels, no
 * canvas; pdfjs-page-images.ts), turned into 8-bit grey PNGs (grey-png-encoder.ts) and recognized.
 * Like Textract, `start` answers with a job id at once and the completion notice arrives later (here
 * through `notify`, which posts it to the local OCR queue); `results` gives the text. One tesseract
 * worker, created on first use, runs the jobs one after another.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocumentProxy } from 'unpdf';
import type { ObjectStore, OcrCompletion, OcrEngine, OcrInput, OcrResult } from '../../conversations/app/file-ports';
import { encodeGreyPng } from './grey-png-encoder';
import { pageImages } from './pdfjs-page-images';

export interface TesseractOcrOptions {
  readonly objects: ObjectStore;
  /** Named in the completion's `DocumentLocation`, as Textract does. */
  readonly bucket: string;
  /** Delivers the completion notice (locally: a message on the OCR queue). */
  readonly notify: (completion: OcrCompletion) => Promise<void>;
  /** Where failures are logged (a Powertools `Logger` fits). */
  readonly logger?: { error(message: string, attributes: Record<string, unknown>): void };
}

interface TesseractWorker {
  recognize(image: Buffer): Promise<{ data: { text: string } }>;
  terminate(): Promise<unknown>;
}

/** Results kept for `results` (oldest dropped first); Textract keeps them for 7 days. */
const MAX_KEPT_RESULTS = 1000;

/**
 * The directory of the installed English data. `4.0.0_best_int` holds the integer LSTM model, what
 * tesseract.js itself loads for its default engine mode (LSTM only); its file is gzipped.
 */
function englishDataPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

export class TesseractOcrEngine implements OcrEngine {
  private worker: Promise<TesseractWorker> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly finished = new Map<string, OcrResult>();
  private readonly running = new Set<string>();
  private closed = false;

  constructor(private readonly opts: TesseractOcrOptions) {}

  /** Queues the job and answers at once; the completion notice follows through `notify`. */
  async start(input: OcrInput): Promise<{ readonly jobId: string }> {
    if (this.closed) throw new Error('the OCR engine is stopped');
    const jobId = randomUUID();
    this.running.add(jobId);
    this.queue = this.queue.then(() => this.run(jobId, input)).finally(() => this.running.delete(jobId));
    return { jobId };
  }

  async results(jobId: string): Promise<OcrResult> {
    const result = this.finished.get(jobId);
    if (result) return result;
    return { status: 'FAILED', message: this.running.has(jobId) ? `OCR job ${jobId} has not finished` : `unknown OCR job ${jobId}` };
  }

  /** Refuses new jobs, waits for the queued ones, then stops the worker. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue.catch(() => undefined);
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker.catch(() => undefined))?.terminate();
  }

  private tesseract(): Promise<TesseractWorker> {
    this.worker ??= import('tesseract.js')
      .then(async (mod) => {
        const m = mod as unknown as { createWorker?: (...args: unknown[]) => unknown; default?: { createWorker: (...args: unknown[]) => unknown } };
        const createWorker = (m.createWorker ?? m.default!.createWorker) as (langs: string, oem: number, options: object) => Promise<TesseractWorker>;
        return createWorker('eng', 1, {
          langPath: englishDataPath(),
          gzip: true,
          cacheMethod: 'none',
          logger: () => undefined,
          errorHandler: () => undefined,
        });
      })
      .catch((err: unknown) => {
        this.worker = undefined; // the next job tries again
        throw err;
      });
    return this.worker;
  }

  /** One job, start to notice; never throws. */
  private async run(jobId: string, input: OcrInput): Promise<void> {
    let result: OcrResult;
    try {
      result = await this.recognize(input);
    } catch (err) {
      this.opts.logger?.error('local OCR failed', { jobId, fileId: input.fileId, error: String(err) });
      result = { status: 'FAILED', message: `OCR failed: ${(err as Error)?.message ?? String(err)}` };
    }
    this.finished.set(jobId, result);
    if (this.finished.size > MAX_KEPT_RESULTS) this.finished.delete(this.finished.keys().next().value!);
    try {
      await this.opts.notify({
        JobId: jobId,
        Status: result.status,
        API: 'StartDocumentTextDetection',
        JobTag: input.fileId,
        Timestamp: Date.now(),
        DocumentLocation: { S3ObjectName: input.storageKey, S3Bucket: this.opts.bucket },
      });
    } catch (err) {
      this.opts.logger?.error('local OCR notice could not be sent', { jobId, fileId: input.fileId, error: String(err) });
    }
  }

  /** One image's text; a worker that failed is dropped (terminated), so the next job starts a fresh one. */
  private async read(worker: TesseractWorker, png: Buffer): Promise<string> {
    try {
      return (await worker.recognize(png)).data.text;
    } catch (err) {
      if (this.worker) {
        this.worker = undefined;
        await worker.terminate().catch(() => undefined);
      }
      throw err;
    }
  }

  /** Text per page (each image's text joined by "\n"), pages joined by "\n\n". */
  private async recognize(input: OcrInput): Promise<OcrResult> {
    const bytes = await this.opts.objects.get(input.storageKey);
    if (!bytes) return { status: 'FAILED', message: 'the PDF is no longer stored' };
    // A copy: PDF.js takes ownership of (detaches) the buffer it is given. verbosity 0: no console noise.
    const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      const worker = await this.tesseract();
      const pages: string[] = [];
      for (let page = 1; page <= doc.numPages; page++) {
        const texts: string[] = [];
        for (const image of await pageImages(doc, page)) texts.push((await this.read(worker, encodeGreyPng(image))).trim());
        pages.push(texts.filter(Boolean).join('\n'));
      }
      return { status: 'SUCCEEDED', text: pages.join('\n\n'), pages: doc.numPages };
    } finally {
      await doc.destroy().catch(() => undefined);
    }
  }
}
