/**
 * Page images out of a PDF for the local OCR engine (tesseract-ocr-engine.ts): each raster image a page
 * paints, decoded by unpdf's PDF.js (no canvas) and turned into 8-bit grey on white.
 *
 * Page images are read from PDF.js's operator list directly rather than with unpdf's `extractImages`:
 * that one skips 1-bit images (what CCITT G4 and JBIG2 scans, the usual black-and-white scanner output,
 * decode to) and stencil masks, and would return no text for them. Text drawn as vector outlines is
 * not recognized (that would need a canvas to render the page).
 */
import { getResolvedPDFJS, type getDocumentProxy } from 'unpdf';

/** A decoded page image as 8-bit grey on white. */
export interface GreyImage {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;
}

/** How long to wait for PDF.js to deliver one decoded image before skipping it. */
const IMAGE_WAIT_MS = 15_000;
/** Images smaller than this on a side carry no readable text (and tesseract refuses tiny ones). */
const MIN_IMAGE_SIDE = 8;

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
