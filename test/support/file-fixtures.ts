/**
 * Upload fixtures, made by code (nothing downloaded, no binary checked in). How each is made:
 * - `png`: an RGB PNG written here (IHDR, one zlib-deflated IDAT of filter-0 scanlines, IEND, CRC-32).
 * - `jpeg`: the widely reproduced minimal baseline JPEG (1x1 grey, 125 bytes), as a base64 constant.
 * - `textPdf`: a PDF 1.4 with Helvetica text (`Tj` per line), one page per string, exact xref offsets.
 * - `scannedPdf`: pages with no text operators, each one image XObject (8-bit DeviceGray, FlateDecode)
 *   of black upper-case text drawn with a 5x7 bitmap font scaled up, as a scanner would produce.
 * - `encryptedPdf`: `textPdf` plus a Standard security handler `/Encrypt` dictionary (R2, a user
 *   password set), so a reader must ask for the password.
 * - `truncatedPdf`: the first half of a text PDF.
 * - `docx`: a minimal WordprocessingML package ([Content_Types].xml, _rels/.rels, word/document.xml)
 *   in a ZIP written here (stored entries, CRC-32).
 * - `corruptDocx`: a ZIP local-file header followed by garbage.
 * - `legacyDoc` / `encryptedDocx`: OLE2 compound-file headers (D0 CF 11 E0 …) with a directory sector
 *   naming `WordDocument` (a Word 97 .doc) or `EncryptionInfo` + `EncryptedPackage` (how Word stores
 *   a password-protected .docx).
 */
import { deflateSync } from 'node:zlib';

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

function pngChunk(type: string, data: Buffer): Buffer {
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  return Buffer.concat([u32be(data.length), td, u32be(crc32(td))]);
}

/** A `width` x `height` PNG of one colour. */
export function png(width: number, height: number, rgb: [number, number, number] = [40, 120, 200]): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
}

const MINIMAL_JPEG =
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=';

export function jpeg(): Uint8Array {
  return Buffer.from(MINIMAL_JPEG, 'base64');
}

/** A PDF from object bodies (object n is `objects[n-1]`), with the xref table and trailer computed. */
function pdfOf(objects: (string | Buffer)[], trailerExtra = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'), Buffer.from('\nendobj\n')]);
    parts.push(obj);
    length += obj.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);
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

/** Pages: `[catalog, pages, font, (page, content)…]` with `contentOf(i)` giving each page's stream. */
function pagedPdf(count: number, page: (i: number, pageObj: number) => (string | Buffer)[], resources: (i: number) => string, trailerExtra = ''): Buffer {
  const objects: (string | Buffer)[] = [];
  const kids = Array.from({ length: count }, (_, i) => `${4 + i * 3} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${count} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let i = 0; i < count; i++) {
    const pageObj = 4 + i * 3;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageObj + 1} 0 R /Resources ${resources(i)} >>`);
    objects.push(...page(i, pageObj));
  }
  return pdfOf(objects, trailerExtra);
}

/** A PDF with a text layer: one page per string. */
export function textPdf(text: string | readonly string[], trailerExtra = ''): Uint8Array {
  const pages = typeof text === 'string' ? [text] : [...text];
  return pagedPdf(
    pages.length,
    (i) => {
      const lines = wrap(pages[i]!);
      const ops = `BT /F1 11 Tf 14 TL 50 740 Td ${lines.map((l) => `(${escapePdf(l)}) Tj T*`).join(' ')} ET`;
      return [stream('', Buffer.from(ops, 'latin1')), '<< >>'];
    },
    () => '<< /Font << /F1 3 0 R >> >>',
    trailerExtra,
  );
}

/** 5x7 glyphs, one string of 7 rows of 5 bits per character. */
const FONT: Record<string, string[]> = {
  A: ['01110', '10001', '10001', '11111', '10001', '10001', '10001'],
  B: ['11110', '10001', '10001', '11110', '10001', '10001', '11110'],
  C: ['01110', '10001', '10000', '10000', '10000', '10001', '01110'],
  D: ['11110', '10001', '10001', '10001', '10001', '10001', '11110'],
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
  V: ['10001', '10001', '10001', '10001', '10001', '01010', '00100'],
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
 * Black text on white, 8-bit grey: each glyph pixel a `scale` x `scale` block, then a box blur of
 * radius `blur`, the soft edges of a real scan. Scale 3 with blur 2 is what tesseract reads back
 * exactly (upper case and digits; checked in test/unit/tesseract-ocr-engine.test.ts).
 */
export function renderText(lines: readonly string[], scale = 3, blur = 2): { width: number; height: number; pixels: Buffer } {
  const margin = 4 * scale;
  const cell = 6 * scale;
  const lineHeight = 11 * scale;
  const width = margin * 2 + cell * Math.max(...lines.map((l) => l.length));
  const height = margin * 2 + lineHeight * lines.length;
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

/** An image-only PDF: `pages` pages, each an image of `lines` (the page number appended to later pages' first line). */
export function scannedPdf(lines: readonly string[], pages = 1): Uint8Array {
  return pagedPdf(
    pages,
    (i, pageObj) => {
      const pageLines = i === 0 ? lines : [`${lines[0] ?? ''} ${i + 1}`, ...lines.slice(1)];
      const { width, height, pixels } = renderText(pageLines);
      const w = 500;
      const h = Math.round((500 * height) / width);
      const ops = `q ${w} 0 0 ${h} 50 ${742 - h} cm /Im${pageObj} Do Q`;
      return [stream('', Buffer.from(ops, 'latin1')), stream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`, deflateSync(pixels))];
    },
    (i) => `<< /XObject << /Im${4 + i * 3} ${4 + i * 3 + 2} 0 R >> >>`,
  );
}

/** A text PDF behind a Standard security handler: opening it needs a user password. */
export function encryptedPdf(): Uint8Array {
  const o = 'a1'.repeat(32);
  const u = 'b2'.repeat(32);
  const id = 'c3'.repeat(16);
  // The /Encrypt dictionary inline in the trailer (readers accept a direct dictionary).
  return textPdf('Confidential', `/Encrypt << /Filter /Standard /V 1 /R 2 /O <${o}> /U <${u}> /P -44 >> /ID [<${id}> <${id}>] `);
}

export function truncatedPdf(): Uint8Array {
  const whole = textPdf('This document was cut off in transfer. '.repeat(20));
  return whole.subarray(0, Math.floor(whole.length / 2));
}

interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
}

/** A ZIP of stored (uncompressed) entries. */
export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(0, 10); // time, date
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, e.data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
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

export function docx(paragraphs: readonly string[]): Uint8Array {
  const contentTypes =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
  const rels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(p)}</w:t></w:r></w:p>`).join('');
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;
  return zip([
    { name: '[Content_Types].xml', data: Buffer.from(contentTypes) },
    { name: '_rels/.rels', data: Buffer.from(rels) },
    { name: 'word/document.xml', data: Buffer.from(document) },
  ]);
}

export function corruptDocx(): Uint8Array {
  const garbage = Buffer.alloc(600);
  for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 37 + 11) & 0xff;
  return Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), garbage]);
}

/** An OLE2 compound file: header sector plus one directory sector naming the given streams. */
function compoundFile(streamNames: readonly string[]): Buffer {
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x003e, 24); // minor version
  header.writeUInt16LE(0x0003, 26); // major version 3
  header.writeUInt16LE(0xfffe, 28); // little endian
  header.writeUInt16LE(9, 30); // 512-byte sectors
  header.writeUInt16LE(6, 32); // 64-byte mini sectors
  header.writeUInt32LE(1, 44); // FAT sectors
  header.writeUInt32LE(1, 48); // first directory sector
  header.writeUInt32LE(0x1000, 56); // mini stream cutoff
  header.writeUInt32LE(0xfffffffe, 60);
  header.writeUInt32LE(0xfffffffe, 68);
  header.fill(0xff, 76, 512);
  header.writeUInt32LE(0, 76); // DIFAT[0] = sector 0 (the FAT)
  const fat = Buffer.alloc(512, 0xff);
  fat.writeUInt32LE(0xfffffffd, 0);
  fat.writeUInt32LE(0xfffffffe, 4);
  const dir = Buffer.alloc(512);
  ['Root Entry', ...streamNames].slice(0, 4).forEach((name, i) => {
    const entry = Buffer.alloc(128);
    const utf16 = Buffer.from(`${name}\0`, 'utf16le');
    utf16.copy(entry, 0);
    entry.writeUInt16LE(utf16.length, 64);
    entry[66] = i === 0 ? 5 : 2; // root storage, then streams
    entry.copy(dir, i * 128);
  });
  return Buffer.concat([header, fat, dir]);
}

export function legacyDoc(): Uint8Array {
  return compoundFile(['WordDocument', '1Table', '\u0005SummaryInformation']);
}

export function encryptedDocx(): Uint8Array {
  return compoundFile(['EncryptionInfo', 'EncryptedPackage', '\u0006DataSpaces']);
}
