/**
 * Textract's local twin (the local platform only): OCR of a PDF without a text layer with tesseract.js
 * and the offline English data of `@tesseract.js-data/eng`, no network ever. A scanned page is an
 * image, so each page's images are taken out of the PDF with unpdf's PDF.js (decoded pixels, no
 * canvas), turned into 8-bit grey PNGs and recognized. Like Textract, `start` answers with a job id at
 * once and the completion notice arrives later (here through `notify`, which posts it to the local OCR
 * queue); `results` gives the text. One tesseract worker, created on first use, runs the jobs one
 * after another.
 *
 * Page images are read from PDF.js's operator list directly rather than with unpdf's `extractImages`:
 * that one skips 1-bit images (what CCITT G4 and JBIG2 scans, the usual black-and-white scanner output,
 * decode to) and stencil masks, and would return no text for them. Text drawn as vector outlines is
 * not recognized (that would need a canvas to render the page).
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import type { ObjectStore, OcrCompletion, OcrEngine, OcrInput, OcrResult } from '../ports/files';

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

/** A decoded page image as 8-bit grey on white. */
export interface GreyImage {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

/** Results kept for `results` (oldest dropped first); Textract keeps them for 7 days. */
const MAX_KEPT_RESULTS = 1000;
/** How long to wait for PDF.js to deliver one decoded image before skipping it. */
const IMAGE_WAIT_MS = 15_000;
/** Images smaller than this on a side carry no readable text (and tesseract refuses tiny ones). */
const MIN_IMAGE_SIDE = 8;

// ---------------------------------------------------------------------------------------------------
// PNG (8-bit grey)

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

function pngChunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** An 8-bit greyscale PNG of the image. */
export function encodeGreyPng(image: GreyImage): Buffer {
  const { width, height, pixels } = image;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // colour type: greyscale
  const raw = Buffer.alloc((width + 1) * height); // filter byte 0 (none) before each row
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw, { level: 6 })), pngChunk('IEND', Buffer.alloc(0))]);
}

// ---------------------------------------------------------------------------------------------------
// Page images out of PDF.js

/** PDF.js's decoded image: `kind` 1 = 1 bit grey (rows padded to a byte), 2 = RGB, 3 = RGBA. */
interface PdfJsImage {
  readonly width: number;
  readonly height: number;
  readonly kind?: number;
  readonly data?: Uint8Array | Uint8ClampedArray | string;
}

/** PDF.js's decoded images as grey: 1-bit (1 = white), RGB(A) by luma over white. Undefined when not raw pixels. */
export function toGrey(image: PdfJsImage, mask = false): GreyImage | undefined {
  const { width, height, data } = image;
  if (!width || !height || !data || typeof data === 'string') return undefined;
  const n = width * height;
  const pixels = new Uint8Array(n);
  const stride = Math.ceil(width / 8);
  if (mask || image.kind === 1 || (image.kind === undefined && data.length === stride * height && data.length !== n)) {
    // Bits: 1 is white (unpainted) for PDF.js image data and masks alike; 0 is black / painted.
    if (data.length < stride * height) return undefined;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) pixels[y * width + x] = (data[y * stride + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
    }
    return { width, height, pixels };
  }
  const channels = data.length / n;
  if (channels === 1) return { width, height, pixels: Uint8Array.from(data) };
  if (channels !== 3 && channels !== 4) return undefined;
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const luma = (data[p]! * 299 + data[p + 1]! * 587 + data[p + 2]! * 114) / 1000;
    const alpha = channels === 4 ? data[p + 3]! / 255 : 1;
    pixels[i] = Math.round(luma * alpha + 255 * (1 - alpha));
  }
  return { width, height, pixels };
}

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

/** The object PDF.js decoded under `id` (page or document scope), or undefined after `IMAGE_WAIT_MS`. */
function decodedObject(page: PdfPage, id: string): Promise<PdfJsImage | undefined> {
  const store = (id.startsWith('g_') ? page.commonObjs : page.objs) as unknown as { get(id: string, callback: (value: unknown) => void): void };
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), IMAGE_WAIT_MS);
    timer.unref?.();
    store.get(id, (value) => {
      clearTimeout(timer);
      resolve((value ?? undefined) as PdfJsImage | undefined);
    });
  });
}

/** The raster images a page paints (each once), as grey: XObjects, inline images and stencil masks. */
export async function pageImages(doc: PdfDocument, pageNumber: number): Promise<GreyImage[]> {
  const { OPS } = await getResolvedPDFJS();
  const page = await doc.getPage(pageNumber);
  try {
    const ops = await page.getOperatorList();
    const seen = new Set<string>();
    const images: GreyImage[] = [];
    for (let i = 0; i < ops.fnArray.length; i++) {
      const fn = ops.fnArray[i];
      const arg = (ops.argsArray[i] as unknown[] | null)?.[0];
      let image: GreyImage | undefined;
      if (fn === OPS.paintImageXObject || fn === OPS.paintImageXObjectRepeat) {
        if (typeof arg !== 'string' || seen.has(arg)) continue;
        seen.add(arg);
        const decoded = await decodedObject(page, arg);
        image = decoded && toGrey(decoded);
      } else if (fn === OPS.paintInlineImageXObject) {
        image = toGrey(arg as PdfJsImage);
      } else if (fn === OPS.paintImageMaskXObject || fn === OPS.paintImageMaskXObjectRepeat) {
        const mask = arg as PdfJsImage;
        if (typeof mask?.data === 'string') {
          if (seen.has(mask.data)) continue;
          seen.add(mask.data);
          const decoded = await decodedObject(page, mask.data);
          image = decoded && toGrey({ ...decoded, width: decoded.width ?? mask.width, height: decoded.height ?? mask.height }, true);
        } else image = mask && toGrey(mask, true);
      }
      if (image && image.width >= MIN_IMAGE_SIDE && image.height >= MIN_IMAGE_SIDE) images.push(image);
    }
    return images;
  } finally {
    page.cleanup();
  }
}

// ---------------------------------------------------------------------------------------------------
// The engine

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
        const m = mod as unknown as { createWorker?: Function; default?: { createWorker: Function } };
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
