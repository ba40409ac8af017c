/**
 * Upload fixtures, made by code: nothing downloaded, no binary checked in, the same bytes on every run.
 * How each is made (test/unit/file-fixtures.test.ts checks each one is what it claims):
 * - `png`: an RGB PNG of one colour written here: signature, IHDR, one zlib-deflated IDAT of filter-0
 *   scanlines, IEND, each chunk with its CRC-32.
 * - `jpeg`: a baseline JPEG of one grey (default 8x8) written here: SOI, JFIF APP0, a quantization table
 *   of ones, SOF0 (one 8-bit component), the standard DC luminance Huffman table and an AC table that
 *   only holds end-of-block, one scan (every block is its DC value then EOB; a uniform block has only a
 *   DC coefficient, 8 x (grey - 128)), EOI. libjpeg (inside tesseract.js) and PDF.js both decode it.
 * - `textPdf`: a PDF 1.4 with Helvetica text (`Tj` per line), one page per string, exact xref offsets.
 * - `scannedPdf`: pages with no text operators, each drawing one image XObject (8-bit DeviceGray,
 *   FlateDecode) of black upper-case text on white: a 5x7 bitmap font scaled 3x, softened by a box blur
 *   like a real scan, which tesseract reads back exactly. Options give the other shapes a scanner makes:
 *   a 1-bit image (`bilevel`, what CCITT/JBIG2 scans decode to) or a 1-bit stencil mask (`mask`), both
 *   drawn at 6x, blurred and thresholded.
 * - `encryptedPdf`: a text PDF really encrypted by the Standard security handler (R2, 40-bit RC4), with
 *   a user password (default "secret"): readers must ask for it, and with it the text reads back.
 * - `truncatedPdf`: the first half of a text PDF (cut inside its content stream, no xref, no trailer).
 * - `docx`: a minimal WordprocessingML package ([Content_Types].xml, _rels/.rels, word/document.xml)
 *   in a ZIP written here (deflated entries, CRC-32, central directory).
 * - `corruptDocx`: a ZIP local-file header followed by garbage (file-type says application/zip).
 * - `truncatedDocx`: a real `docx` cut after its first entry: file-type still says DOCX (it reads only
 *   [Content_Types].xml), but the document cannot be opened.
 * - `legacyDoc` / `encryptedDocx`: OLE2 compound files (D0 CF 11 E0 A1 B1 1A E1, version 3, 512-byte
 *   sectors: header, one FAT sector, one directory sector) whose directory names `WordDocument`
 *   (a Word 97 .doc) or `EncryptionInfo` + `EncryptedPackage` (how Word stores a password-protected
 *   .docx); the streams are empty.
 * - `bytesOfSize`: `n` bytes: an optional head (e.g. a PNG, so the type sniffs right) then filler.
 */
import { createHash } from 'node:crypto';
import { deflateRawSync, deflateSync } from 'node:zlib';

// ---------------------------------------------------------------------------------------------------
// CRC-32 (ZIP, PNG)

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function u32be(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

// ---------------------------------------------------------------------------------------------------
// PNG

function pngChunk(type: string, data: Buffer): Buffer {
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  return Buffer.concat([u32be(data.length), td, u32be(crc32(td))]);
}

/** A `width` x `height` PNG of one colour. */
export function png(width: number, height: number, rgb: readonly [number, number, number] = [40, 120, 200]): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A PNG with a text chunk of `textBytes` bytes after its header, and `acTL` (an animated PNG's control
 * chunk) after that when `animated`: a type check walks past the text to find the image data, or acTL.
 */
export function pngWithLongText(textBytes: number, animated = false): Uint8Array {
  const plain = Buffer.from(png(2, 2));
  const afterHeader = 8 + 25;
  return Buffer.concat([
    plain.subarray(0, afterHeader),
    pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(textBytes - 8, 0x61)])),
    ...(animated ? [pngChunk('acTL', Buffer.from([0, 0, 0, 1, 0, 0, 0, 0]))] : []),
    plain.subarray(afterHeader),
  ]);
}

// ---------------------------------------------------------------------------------------------------
// JPEG

function segment(marker: number, body: readonly number[] | Buffer): Buffer {
  const b = Buffer.from(body);
  return Buffer.concat([Buffer.from([0xff, marker, (b.length + 2) >> 8, (b.length + 2) & 0xff]), b]);
}

/** Canonical Huffman codes (JPEG Annex C) from the 16 code-length counts: value -> [code, length]. */
function huffmanCodes(counts: readonly number[], values: readonly number[]): Map<number, [number, number]> {
  const codes = new Map<number, [number, number]>();
  let code = 0;
  let k = 0;
  counts.forEach((n, i) => {
    for (let j = 0; j < n; j++) codes.set(values[k++]!, [code++, i + 1]);
    code <<= 1;
  });
  return codes;
}

/** A baseline greyscale JPEG, `width` x `height`, every pixel `grey` (see the top of the file). */
export function jpeg(width = 8, height = 8, grey = 200): Uint8Array {
  const dcCounts = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]; // ITU T.81 Table K.3
  const dcValues = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  const acCounts = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]; // one code: 0x00 (EOB) = '0'
  const dc = huffmanCodes(dcCounts, dcValues);
  const eob = huffmanCodes(acCounts, [0x00]).get(0x00)!;

  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  const put = (code: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) {
      acc = (acc << 1) | ((code >> i) & 1);
      if (++bits === 8) {
        out.push(acc);
        if (acc === 0xff) out.push(0x00); // byte stuffing
        acc = 0;
        bits = 0;
      }
    }
  };
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  let previous = 0;
  for (let b = 0; b < blocks; b++) {
    const value = 8 * (Math.round(grey) - 128); // the DC coefficient of a uniform block (quantizer 1)
    const diff = value - previous;
    previous = value;
    const category = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
    const [code, length] = dc.get(category)!;
    put(code, length);
    if (category > 0) put(diff > 0 ? diff : diff + (1 << category) - 1, category);
    put(eob[0], eob[1]);
  }
  if (bits > 0) put(0xff, 8 - bits); // pad the last byte with ones

  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, [...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]),
    segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]),
    segment(0xc4, [0x00, ...dcCounts, ...dcValues]),
    segment(0xc4, [0x10, ...acCounts, 0x00]),
    segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    Buffer.from(out),
    Buffer.from([0xff, 0xd9]),
  ]);
}

// ---------------------------------------------------------------------------------------------------
// PDF

/** An object body; a stream's `/Length` is written from its data. */
type PdfObject = string | { readonly dict: string; readonly data: Buffer };

/**
 * A PDF from object bodies (object n is `objects[n-1]`), with exact xref offsets and the trailer.
 * `encrypt` (the security handler) transforms each stream's data with its object number.
 */
function pdfOf(objects: readonly PdfObject[], trailerExtra = '', encrypt?: (objNum: number, data: Buffer) => Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    let content: Buffer;
    if (typeof body === 'string') content = Buffer.from(body, 'latin1');
    else {
      const data = encrypt ? encrypt(i + 1, body.data) : body.data;
      content = Buffer.concat([Buffer.from(`<< ${body.dict} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);
    }
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), content, Buffer.from('\nendobj\n')]);
    parts.push(obj);
    length += obj.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/**
 * Objects `[catalog, pages, font, (page, content, extra)…]`: page i is object 4 + 3i, its content
 * stream 5 + 3i, and one extra object (its image, or an empty dictionary) 6 + 3i.
 */
function pagedObjects(
  count: number,
  page: (i: number) => { content: Buffer; extra?: PdfObject; resources: string },
  tail: readonly PdfObject[] = [],
): PdfObject[] {
  const objects: PdfObject[] = [];
  const kids = Array.from({ length: count }, (_, i) => `${4 + i * 3} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${count} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  for (let i = 0; i < count; i++) {
    const p = page(i);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${5 + i * 3} 0 R /Resources ${p.resources} >>`);
    objects.push({ dict: '', data: p.content });
    objects.push(p.extra ?? '<< >>');
  }
  return [...objects, ...tail];
}

const escapePdf = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

/** Lines of at most `width` characters, breaking at spaces. */
function wrap(text: string, width = 90): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line && line.length + 1 + word.length > width) {
        out.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(line);
  }
  return out;
}

function textPageObjects(text: string | readonly string[], tail: readonly PdfObject[] = []): PdfObject[] {
  const pages = typeof text === 'string' ? [text] : [...text];
  return pagedObjects(
    pages.length,
    (i) => {
      const lines = wrap(pages[i]!);
      const ops = `BT /F1 11 Tf 14 TL 50 740 Td ${lines.map((l) => `(${escapePdf(l)}) Tj T*`).join(' ')} ET`;
      return { content: Buffer.from(ops, 'latin1'), resources: '<< /Font << /F1 3 0 R >> >>' };
    },
    tail,
  );
}

/**
 * A PDF with a text layer: one page per string (Latin-1 text; lines wrap at 90 characters, `\n`
 * breaks a line). PDF.js reads each page back as its lines joined by "\n".
 */
export function textPdf(text: string | readonly string[], trailerExtra = ''): Uint8Array {
  return pdfOf(textPageObjects(text), trailerExtra);
}

/** 5x7 glyphs, one string of 7 rows of 5 bits per character (V and D shaped so tesseract tells them from U and O). */
const FONT: Record<string, string[]> = {
  A: ['01110', '10001', '10001', '11111', '10001', '10001', '10001'],
  B: ['11110', '10001', '10001', '11110', '10001', '10001', '11110'],
  C: ['01110', '10001', '10000', '10000', '10000', '10001', '01110'],
  D: ['11100', '10010', '10001', '10001', '10001', '10010', '11100'],
  E: ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
  F: ['11111', '10000', '10000', '11110', '10000', '10000', '10000'],
  G: ['01110', '10001', '10000', '10111', '10001', '10001', '01111'],
  H: ['10001', '10001', '10001', '11111', '10001', '10001', '10001'],
  I: ['01110', '00100', '00100', '00100', '00100', '00100', '01110'],
  J: ['00111', '00010', '00010', '00010', '00010', '10010', '01100'],
  K: ['10001', '10010', '10100', '11000', '10100', '10010', '10001'],
  L: ['10000', '10000', '10000', '10000', '10000', '10000', '11111'],
  M: ['10001', '11011', '10101', '10101', '10001', '10001', '10001'],
  N: ['10001', '10001', '11001', '10101', '10011', '10001', '10001'],
  O: ['01110', '10001', '10001', '10001', '10001', '10001', '01110'],
  P: ['11110', '10001', '10001', '11110', '10000', '10000', '10000'],
  Q: ['01110', '10001', '10001', '10001', '10101', '10010', '01101'],
  R: ['11110', '10001', '10001', '11110', '10100', '10010', '10001'],
  S: ['01111', '10000', '10000', '01110', '00001', '00001', '11110'],
  T: ['11111', '00100', '00100', '00100', '00100', '00100', '00100'],
  U: ['10001', '10001', '10001', '10001', '10001', '10001', '01110'],
  V: ['10001', '10001', '10001', '01010', '01010', '01010', '00100'],
  W: ['10001', '10001', '10001', '10101', '10101', '10101', '01010'],
  X: ['10001', '10001', '01010', '00100', '01010', '10001', '10001'],
  Y: ['10001', '10001', '01010', '00100', '00100', '00100', '00100'],
  Z: ['11111', '00001', '00010', '00100', '01000', '10000', '11111'],
  '0': ['01110', '10001', '10011', '10101', '11001', '10001', '01110'],
  '1': ['00100', '01100', '00100', '00100', '00100', '00100', '01110'],
  '2': ['01110', '10001', '00001', '00010', '00100', '01000', '11111'],
  '3': ['11111', '00010', '00100', '00010', '00001', '10001', '01110'],
  '4': ['00010', '00110', '01010', '10010', '11111', '00010', '00010'],
  '5': ['11111', '10000', '11110', '00001', '00001', '10001', '01110'],
  '6': ['00110', '01000', '10000', '11110', '10001', '10001', '01110'],
  '7': ['11111', '00001', '00010', '00100', '01000', '01000', '01000'],
  '8': ['01110', '10001', '10001', '01110', '10001', '10001', '01110'],
  '9': ['01110', '10001', '10001', '01111', '00001', '00010', '01100'],
  ' ': ['00000', '00000', '00000', '00000', '00000', '00000', '00000'],
};

/**
 * The characters `scannedPdf` can draw (others are drawn as spaces). Upper-case words and numbers
 * read back exactly; single characters out of context can be misread (0/O, 5/S, 6/&).
 */
export const SCANNABLE = /^[A-Z0-9 ]*$/;

/**
 * Black text on white, 8-bit grey: each glyph pixel a `scale` x `scale` block, then a box blur of
 * radius `blur`, the soft edges of a real scan. Scale 3 with blur 2 is what tesseract reads back
 * exactly (upper case and digits; checked in test/unit/tesseract-ocr-engine.test.ts).
 */
export function renderText(lines: readonly string[], scale = 3, blur = 2): { width: number; height: number; pixels: Buffer } {
  const margin = 4 * scale;
  const cell = 6 * scale;
  const lineHeight = 11 * scale;
  const width = margin * 2 + cell * Math.max(1, ...lines.map((l) => l.length));
  const height = margin * 2 + lineHeight * Math.max(1, lines.length);
  const pixels = Buffer.alloc(width * height, 255);
  lines.forEach((line, li) => {
    [...line.toUpperCase()].forEach((ch, ci) => {
      const glyph = FONT[ch] ?? FONT[' ']!;
      glyph.forEach((row, gy) => {
        [...row].forEach((bit, gx) => {
          if (bit !== '1') return;
          for (let dy = 0; dy < scale; dy++) {
            const y = margin + li * lineHeight + gy * scale + dy;
            const x0 = margin + ci * cell + gx * scale;
            pixels.fill(0, y * width + x0, y * width + x0 + scale);
          }
        });
      });
    });
  });
  return { width, height, pixels: boxBlur(pixels, width, height, blur) };
}

function boxBlur(pixels: Buffer, width: number, height: number, r: number): Buffer {
  if (r <= 0) return pixels;
  const out = Buffer.alloc(pixels.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      let n = 0;
      for (let yy = Math.max(0, y - r); yy <= Math.min(height - 1, y + r); yy++) {
        for (let xx = Math.max(0, x - r); xx <= Math.min(width - 1, x + r); xx++) {
          sum += pixels[yy * width + xx]!;
          n++;
        }
      }
      out[y * width + x] = Math.round(sum / n);
    }
  }
  return out;
}

/** 8-bit grey to 1 bit per pixel, rows padded to a byte, `ink` the bit value of dark pixels. */
function toBits(pixels: Buffer, width: number, height: number, ink: 0 | 1): Buffer {
  const stride = Math.ceil(width / 8);
  const out = Buffer.alloc(stride * height, ink ? 0x00 : 0xff);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dark = pixels[y * width + x]! < 128;
      if (dark === (ink === 1)) out[y * stride + (x >> 3)]! |= 0x80 >> (x & 7);
      else out[y * stride + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
  }
  return out;
}

export interface ScannedPdfOptions {
  /**
   * How the page image is stored: `gray` an 8-bit DeviceGray image (default), `bilevel` a 1-bit
   * DeviceGray image (what CCITT and JBIG2 scans decode to), `mask` a 1-bit stencil `/ImageMask`
   * painted black.
   */
  readonly image?: 'gray' | 'bilevel' | 'mask';
}

/**
 * An image-only PDF (no text operators): `pages` pages, each one image of `lines` (from the second
 * page on, the page number is appended to the first line, so pages differ). Upper-case letters,
 * digits and spaces only (see `SCANNABLE`).
 */
export function scannedPdf(lines: readonly string[], pages = 1, options: ScannedPdfOptions = {}): Uint8Array {
  const kind = options.image ?? 'gray';
  return pdfOf(
    pagedObjects(pages, (i) => {
      const pageLines = i === 0 ? lines : [`${lines[0] ?? ''} ${i + 1}`, ...lines.slice(1)];
      // 1-bit images: drawn larger and blurred before the threshold, so the glyphs' corners round off.
      const { width, height, pixels } = kind === 'gray' ? renderText(pageLines) : renderText(pageLines, 6, 4);
      const w = 500;
      const h = Math.round((500 * height) / width);
      const name = `/Im${i + 1}`;
      const ops = `q ${kind === 'mask' ? '0 g ' : ''}${w} 0 0 ${h} 50 ${742 - h} cm ${name} Do Q`;
      const head = `/Type /XObject /Subtype /Image /Width ${width} /Height ${height}`;
      const image: PdfObject =
        kind === 'gray'
          ? { dict: `${head} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`, data: deflateSync(pixels) }
          : kind === 'bilevel'
            ? { dict: `${head} /ColorSpace /DeviceGray /BitsPerComponent 1 /Filter /FlateDecode`, data: deflateSync(toBits(pixels, width, height, 0)) }
            : { dict: `${head} /ImageMask true /BitsPerComponent 1 /Filter /FlateDecode`, data: deflateSync(toBits(pixels, width, height, 0)) };
      return { content: Buffer.from(ops, 'latin1'), extra: image, resources: `<< /XObject << ${name} ${6 + i * 3} 0 R >> >>` };
    }),
  );
}

// Standard security handler, revision 2 (PDF 1.7, 7.6.3): 40-bit RC4 keys from MD5.

const PASSWORD_PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();
const padPassword = (password: string) => Buffer.concat([Buffer.from(password, 'latin1'), PASSWORD_PAD]).subarray(0, 32);

/**
 * A text PDF encrypted by the Standard security handler (R2, RC4 40-bit) with user password
 * `password`: opening it needs the password (PDF.js: PasswordException), and with it `text` reads back.
 */
export function encryptedPdf(password = 'secret', text = 'Confidential'): Uint8Array {
  const permissions = -44; // print and copy refused, as "protect with password" dialogs do
  const id = md5(Buffer.from(`fixture:${password}:${text}`));
  const owner = rc4(md5(padPassword(`${password}-owner`)).subarray(0, 5), padPassword(password)); // Algorithm 3
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const fileKey = md5(padPassword(password), owner, p, id).subarray(0, 5); // Algorithm 2
  const user = rc4(fileKey, PASSWORD_PAD); // Algorithm 4
  const objects = textPageObjects(text, [`<< /Filter /Standard /V 1 /R 2 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${permissions} >>`]);
  const encryptObj = objects.length;
  const objectKey = (num: number) => md5(fileKey, Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, 0, 0])).subarray(0, 10); // Algorithm 1
  return pdfOf(objects, `/Encrypt ${encryptObj} 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>] `, (num, data) => rc4(objectKey(num), data));
}

/** The first half of a text PDF: cut inside its content stream, with no xref and no trailer. */
export function truncatedPdf(): Uint8Array {
  const whole = textPdf('This document was cut off in transfer. '.repeat(20));
  return whole.subarray(0, Math.floor(whole.length / 2));
}

// ---------------------------------------------------------------------------------------------------
// ZIP and DOCX

export interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
}

/** A ZIP of deflated entries (method 8, dated 1980-01-01), with its central directory. */
export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(e.data);
    const packed = deflateRawSync(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // flags: UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6); // needed
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const centralDir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDir, end]);
}

const escapeXml = (s: string) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

const DOCX_ENTRIES = (paragraphs: readonly string[]): ZipEntry[] => {
  const contentTypes =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
  const rels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(p)}</w:t></w:r></w:p>`).join('');
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;
  return [
    { name: '[Content_Types].xml', data: Buffer.from(contentTypes) },
    { name: '_rels/.rels', data: Buffer.from(rels) },
    { name: 'word/document.xml', data: Buffer.from(document) },
  ];
};

/** A minimal DOCX, one paragraph per string; mammoth reads it back as the paragraphs joined by "\n\n". */
export function docx(paragraphs: readonly string[]): Uint8Array {
  return zip(DOCX_ENTRIES(paragraphs));
}

/** A ZIP local-file header, then garbage: file-type says application/zip, nothing can open it. */
export function corruptDocx(): Uint8Array {
  const garbage = Buffer.alloc(600);
  for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 37 + 11) & 0xff;
  return Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), garbage]);
}

/** A `docx` cut a few bytes into its second entry: file-type still says DOCX, nothing can open it. */
export function truncatedDocx(): Uint8Array {
  const entries = DOCX_ENTRIES(['This document was cut off in transfer.']);
  const first = entries[0]!;
  const firstLength = 30 + Buffer.byteLength(first.name) + deflateRawSync(first.data).length;
  return zip(entries).subarray(0, firstLength + 40);
}

// ---------------------------------------------------------------------------------------------------
// OLE2 compound files (MS-CFB)

const ENDOFCHAIN = 0xfffffffe;
const FATSECT = 0xfffffffd;
const NOSTREAM = 0xffffffff;

/** MS-CFB's directory order: shorter names first, then by upper-cased UTF-16. */
function cfbCompare(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  const [ua, ub] = [a.toUpperCase(), b.toUpperCase()];
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

/**
 * A version-3 compound file: header, one FAT sector (sector 0), one directory sector (sector 1) with
 * the root storage and the given entries (at most 3), all empty. The root's children form a
 * balanced red-black tree (the nodes below the last full level red).
 */
function compoundFile(entries: readonly { readonly name: string; readonly type: 'stream' | 'storage' }[]): Buffer {
  if (entries.length > 3) throw new Error('one directory sector holds the root and 3 entries');
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x003e, 24); // minor version
  header.writeUInt16LE(0x0003, 26); // major version 3
  header.writeUInt16LE(0xfffe, 28); // byte order: little endian
  header.writeUInt16LE(9, 30); // sector size 2^9
  header.writeUInt16LE(6, 32); // mini sector size 2^6
  header.writeUInt32LE(0, 40); // directory sectors (0 in version 3)
  header.writeUInt32LE(1, 44); // FAT sectors
  header.writeUInt32LE(1, 48); // first directory sector
  header.writeUInt32LE(0, 52); // transaction signature
  header.writeUInt32LE(0x1000, 56); // mini stream cutoff
  header.writeUInt32LE(ENDOFCHAIN, 60); // first mini FAT sector
  header.writeUInt32LE(0, 64); // mini FAT sectors
  header.writeUInt32LE(ENDOFCHAIN, 68); // first DIFAT sector
  header.writeUInt32LE(0, 72); // DIFAT sectors
  header.fill(0xff, 76, 512);
  header.writeUInt32LE(0, 76); // DIFAT[0]: the FAT is sector 0

  const fat = Buffer.alloc(512, 0xff); // every sector free (FREESECT) but these two:
  fat.writeUInt32LE(FATSECT, 0);
  fat.writeUInt32LE(ENDOFCHAIN, 4);

  // Directory ids: 0 the root, then the entries in the given order. Tree over the sorted entries.
  const sorted = entries.map((e, i) => ({ ...e, id: i + 1 })).sort((a, b) => cfbCompare(a.name, b.name));
  const links = new Map<number, { left: number; right: number; red: boolean }>();
  const fullLevels = Math.floor(Math.log2(sorted.length + 1));
  const build = (lo: number, hi: number, depth: number): number => {
    if (lo > hi) return NOSTREAM;
    const mid = (lo + hi) >> 1;
    const id = sorted[mid]!.id;
    links.set(id, { left: build(lo, mid - 1, depth + 1), right: build(mid + 1, hi, depth + 1), red: depth >= fullLevels });
    return id;
  };
  const rootChild = build(0, sorted.length - 1, 0);

  const dir = Buffer.alloc(512);
  const entry = (i: number, name: string, type: number, left: number, right: number, child: number, red: boolean) => {
    const e = dir.subarray(i * 128, (i + 1) * 128);
    const utf16 = Buffer.from(`${name}\0`, 'utf16le');
    utf16.copy(e, 0);
    e.writeUInt16LE(utf16.length, 64);
    e[66] = type; // 1 storage, 2 stream, 5 root
    e[67] = red ? 0 : 1; // 0 red, 1 black
    e.writeUInt32LE(left, 68);
    e.writeUInt32LE(right, 72);
    e.writeUInt32LE(child, 76);
    e.writeUInt32LE(ENDOFCHAIN, 116); // starting sector: none (empty)
    // size (u64 at 120) stays 0
  };
  entry(0, 'Root Entry', 5, NOSTREAM, NOSTREAM, rootChild, false);
  entries.forEach((e, i) => {
    const l = links.get(i + 1)!;
    entry(i + 1, e.name, e.type === 'stream' ? 2 : 1, l.left, l.right, NOSTREAM, l.red);
  });
  for (let i = entries.length + 1; i < 4; i++) {
    // Unused entries: empty names, every link NOSTREAM.
    dir.writeUInt32LE(NOSTREAM, i * 128 + 68);
    dir.writeUInt32LE(NOSTREAM, i * 128 + 72);
    dir.writeUInt32LE(NOSTREAM, i * 128 + 76);
  }
  return Buffer.concat([header, fat, dir]);
}

/** A Word 97-2003 .doc container (MS-CFB with the `WordDocument` stream). file-type: application/x-cfb. */
export function legacyDoc(): Uint8Array {
  return compoundFile([
    { name: 'WordDocument', type: 'stream' },
    { name: '1Table', type: 'stream' },
    { name: '\u0005SummaryInformation', type: 'stream' },
  ]);
}

/** A password-protected .docx as Word stores it: MS-CFB with `EncryptionInfo` and `EncryptedPackage`. */
export function encryptedDocx(): Uint8Array {
  return compoundFile([
    { name: 'EncryptionInfo', type: 'stream' },
    { name: 'EncryptedPackage', type: 'stream' },
    { name: '\u0006DataSpaces', type: 'storage' },
  ]);
}

// ---------------------------------------------------------------------------------------------------
// Sizes

/** Exactly `n` bytes: `head` (e.g. `png(2, 2)`, so the type sniffs right) followed by filler (0x2e). */
export function bytesOfSize(n: number, head: Uint8Array = new Uint8Array(0)): Uint8Array {
  if (head.length > n) throw new Error(`the head alone is ${head.length} bytes, over ${n}`);
  const out = Buffer.alloc(n, 0x2e);
  out.set(head, 0);
  return out;
}
