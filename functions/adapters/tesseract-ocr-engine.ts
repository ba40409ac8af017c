/**
 * Textract's local twin (the local platform only): OCR of a PDF without a text layer with tesseract.js
 * and the offline English data of `@tesseract.js-data/eng`, no network ever. A scanned page is an
 * image, so each page's images are taken out of the PDF with unpdf (raw pixels, no canvas), encoded
 * as PNG and recognized. Like Textract, `start` answers with a job id at once and the completion
 * notice arrives later (here through `notify`, which posts it to the local OCR queue); `results`
 * gives the text. One tesseract worker, created on first use, runs the jobs one after another.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '@aws-lambda-powertools/logger';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import { extractImages, getDocumentProxy } from 'unpdf';
import type { ObjectStore, OcrCompletion, OcrEngine, OcrInput, OcrResult } from '../ports/files';

export interface TesseractOcrOptions {
  readonly objects: ObjectStore;
  readonly bucket: string;
  readonly notify: (completion: OcrCompletion) => Promise<void>;
  readonly logger?: Pick<Logger, 'error'>;
}

interface TesseractWorker {
  recognize(image: Buffer): Promise<{ data: { text: string } }>;
  terminate(): Promise<unknown>;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([head, td, crc]);
}

/** Raw pixels (1, 3 or 4 channels, 8 bits) as a PNG file. */
export function encodePng(image: { data: Uint8ClampedArray | Uint8Array; width: number; height: number; channels: 1 | 3 | 4 }): Buffer {
  const { width, height, channels } = image;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = channels === 1 ? 0 : channels === 3 ? 2 : 6;
  const stride = width * channels;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) Buffer.from(image.data.buffer, image.data.byteOffset + y * stride, stride).copy(raw, y * (stride + 1) + 1);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The directory of the installed English data (`4.0.0/eng.traineddata.gz`). */
function englishDataPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0');
}

export class TesseractOcrEngine implements OcrEngine {
  private worker: Promise<TesseractWorker> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly finished = new Map<string, OcrResult>();
  private readonly running = new Set<Promise<unknown>>();
  private closed = false;

  constructor(private readonly opts: TesseractOcrOptions) {}

  async start(input: OcrInput): Promise<{ jobId: string }> {
    if (this.closed) throw new Error('the OCR engine is stopped');
    const jobId = randomUUID();
    const job = (this.queue = this.queue.then(() => this.run(jobId, input)));
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
    return { jobId };
  }

  async results(jobId: string): Promise<OcrResult> {
    return this.finished.get(jobId) ?? { status: 'FAILED', message: `unknown OCR job ${jobId}` };
  }

  /** Waits for jobs under way, then stops the worker. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.running]);
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker).terminate();
  }

  private tesseract(): Promise<TesseractWorker> {
    this.worker ??= import('tesseract.js').then(async (mod) => {
      const createWorker = (mod as unknown as { createWorker: Function }).createWorker ?? (mod as unknown as { default: { createWorker: Function } }).default.createWorker;
      return (await createWorker('eng', 1, { langPath: englishDataPath(), cacheMethod: 'none', gzip: true, logger: () => undefined, errorHandler: () => undefined })) as TesseractWorker;
    });
    return this.worker;
  }

  private async run(jobId: string, input: OcrInput): Promise<void> {
    let result: OcrResult;
    try {
      result = await this.recognize(input);
    } catch (err) {
      this.opts.logger?.error('local OCR failed', { jobId, fileId: input.fileId, error: String(err) });
      result = { status: 'FAILED', message: (err as Error).message };
    }
    this.finished.set(jobId, result);
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

  private async recognize(input: OcrInput): Promise<OcrResult> {
    const bytes = await this.opts.objects.get(input.storageKey);
    if (!bytes) return { status: 'FAILED', message: 'the PDF is no longer stored' };
    const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      const worker = await this.tesseract();
      const pages: string[] = [];
      for (let page = 1; page <= doc.numPages; page++) {
        const texts: string[] = [];
        for (const image of await extractImages(doc, page)) texts.push((await worker.recognize(encodePng(image))).data.text.trim());
        pages.push(texts.filter(Boolean).join('\n'));
      }
      return { status: 'SUCCEEDED', text: pages.join('\n\n'), pages: doc.numPages };
    } finally {
      await doc.destroy().catch(() => undefined);
    }
  }
}
