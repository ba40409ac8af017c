/**
 * The upload fixtures are what they claim: file-type names each one's type, and the readers that
 * matter (PDF.js, mammoth, a compound-file directory walk) see in each what it is meant to hold.
 */
import { fileTypeFromBuffer } from 'file-type';
import mammoth from 'mammoth';
import { inflateRawSync, inflateSync } from 'node:zlib';
import { extractImages, extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { DOCX_MIME } from '../../functions/conversations/domain/file';
import {
  bytesOfSize,
  corruptDocx,
  crc32,
  docx,
  encryptedDocx,
  encryptedPdf,
  jpeg,
  legacyDoc,
  png,
  scannedPdf,
  textPdf,
  truncatedDocx,
  truncatedPdf,
} from '../support/file-fixtures';

/** PDF.js refuses a Buffer: it wants a plain Uint8Array (which it takes over). */
function openPdf(bytes: Uint8Array, password?: string) {
  return getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, ...(password !== undefined ? { password } : {}) });
}

async function mimeOf(bytes: Uint8Array): Promise<string | undefined> {
  return (await fileTypeFromBuffer(bytes))?.mime;
}

/** A one-page PDF painting `bytes` as a DCTDecode greyscale image XObject. */
function pdfWithJpeg(bytes: Uint8Array, width: number, height: number): Uint8Array {
  const content = 'q 100 0 0 100 0 0 cm /I Do Q';
  const head = Buffer.from(
    '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
      '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 4 0 R /Resources << /XObject << /I 5 0 R >> >> >>\nendobj\n' +
      `4 0 obj\n<< /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\n` +
      `5 0 obj\n<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length ${bytes.length} >>\nstream\n`,
    'latin1',
  );
  // No xref table: PDF.js rebuilds it by scanning, which is all this check needs.
  return Buffer.concat([head, bytes, Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1')]);
}

/** PNG chunks, CRC-checked. */
function pngChunks(bytes: Uint8Array): { type: string; data: Buffer }[] {
  const b = Buffer.from(bytes);
  expect(b.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < b.length; ) {
    const length = b.readUInt32BE(at);
    const type = b.subarray(at + 4, at + 8).toString('ascii');
    const data = b.subarray(at + 8, at + 8 + length);
    expect(b.readUInt32BE(at + 8 + length)).toBe(crc32(b.subarray(at + 4, at + 8 + length)));
    chunks.push({ type, data });
    at += 12 + length;
  }
  return chunks;
}

/** Directory entry names of a compound file, found by following the FAT chain from the header. */
function compoundFileNames(bytes: Uint8Array): string[] {
  const b = Buffer.from(bytes);
  expect(b.subarray(0, 8).toString('hex')).toBe('d0cf11e0a1b11ae1');
  const sectorSize = 1 << b.readUInt16LE(30);
  const sector = (n: number) => b.subarray(512 + n * sectorSize, 512 + (n + 1) * sectorSize);
  const fat = sector(b.readUInt32LE(76));
  const names: string[] = [];
  for (let s = b.readUInt32LE(48); s !== 0xfffffffe; s = fat.readUInt32LE(s * 4)) {
    const dir = sector(s);
    for (let e = 0; e < sectorSize / 128; e++) {
      const entry = dir.subarray(e * 128, (e + 1) * 128);
      const length = entry.readUInt16LE(64);
      if (entry[66] !== 0 && length >= 2) names.push(entry.subarray(0, length - 2).toString('utf16le'));
    }
  }
  return names;
}

describe('upload fixtures', () => {
  it.each([
    ['jpeg', 'image/jpeg', () => jpeg()],
    ['png', 'image/png', () => png(3, 2)],
    ['textPdf', 'application/pdf', () => textPdf('x')],
    ['scannedPdf', 'application/pdf', () => scannedPdf(['A'])],
    ['scannedPdf (bilevel)', 'application/pdf', () => scannedPdf(['A'], 1, { image: 'bilevel' })],
    ['encryptedPdf', 'application/pdf', () => encryptedPdf()],
    ['truncatedPdf', 'application/pdf', () => truncatedPdf()],
    ['docx', DOCX_MIME, () => docx(['x'])],
    ['truncatedDocx', DOCX_MIME, () => truncatedDocx()],
    ['corruptDocx', 'application/zip', () => corruptDocx()],
    ['legacyDoc', 'application/x-cfb', () => legacyDoc()],
    ['encryptedDocx', 'application/x-cfb', () => encryptedDocx()],
  ])('%s is detected as %s', async (_name, mime, make) => {
    expect(await mimeOf(make())).toBe(mime);
  });

  it('are the same bytes on every call', () => {
    for (const make of [
      () => jpeg(),
      () => png(5, 4),
      () => textPdf(['a', 'b']),
      () => scannedPdf(['AB 12']),
      () => encryptedPdf(),
      () => docx(['p']),
      () => legacyDoc(),
    ]) {
      expect(Buffer.from(make()).equals(Buffer.from(make()))).toBe(true);
    }
  });

  it('jpeg: a baseline JPEG that PDF.js decodes to its grey', async () => {
    const bytes = Buffer.from(jpeg(17, 9, 30));
    expect(bytes.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(bytes.subarray(-2).toString('hex')).toBe('ffd9');
    expect(bytes.includes(Buffer.from([0xff, 0xc0]))).toBe(true); // SOF0: baseline
    const doc = await openPdf(pdfWithJpeg(bytes, 17, 9));
    try {
      const [image] = await extractImages(doc, 1);
      expect(image).toMatchObject({ width: 17, height: 9 });
      expect(new Set(image!.data)).toEqual(new Set([30]));
    } finally {
      await doc.destroy();
    }
    expect(jpeg().length).toBeLessThan(300);
  });

  it('png: chunks with valid CRCs holding width x height pixels of the colour', () => {
    const chunks = pngChunks(png(3, 2, [1, 2, 3]));
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const ihdr = chunks[0]!.data;
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9]]).toEqual([3, 2, 8, 2]);
    const row = [0, 1, 2, 3, 1, 2, 3, 1, 2, 3];
    expect([...inflateSync(chunks[1]!.data)]).toEqual([...row, ...row]);
  });

  it('textPdf: PDF.js reads each page back', async () => {
    const doc = await openPdf(textPdf(['Page one (1)', 'Page two \\ backslash']));
    expect(await extractText(doc, { mergePages: false })).toEqual({ totalPages: 2, text: ['Page one (1)', 'Page two \\ backslash'] });
    await doc.destroy();
  });

  it.each(['gray', 'bilevel', 'mask'] as const)('scannedPdf (%s): images and no text operators', async (image) => {
    const bytes = Buffer.from(scannedPdf(['SCANNED 1'], 2, { image }));
    expect(bytes.includes('BT')).toBe(false);
    expect(bytes.includes('Tj')).toBe(false);
    expect(bytes.toString('latin1').match(/\/Subtype \/Image/g)).toHaveLength(2);
    const doc = await openPdf(bytes);
    expect(await extractText(doc, { mergePages: false })).toEqual({ totalPages: 2, text: ['', ''] });
    await doc.destroy();
  });

  it('encryptedPdf: needs its password, and with it the text reads back', async () => {
    await expect(openPdf(encryptedPdf())).rejects.toMatchObject({ name: 'PasswordException', code: 1 });
    await expect(openPdf(encryptedPdf(), 'wrong')).rejects.toMatchObject({ name: 'PasswordException', code: 2 });
    const doc = await openPdf(encryptedPdf('open sesame', 'Top secret'), 'open sesame');
    expect((await extractText(doc, { mergePages: true })).text).toBe('Top secret');
    await doc.destroy();
    expect(Buffer.from(encryptedPdf()).includes('Confidential')).toBe(false);
  });

  it('truncatedPdf: half a PDF, which PDF.js refuses', async () => {
    const bytes = Buffer.from(truncatedPdf());
    expect(bytes.includes('%%EOF')).toBe(false);
    await expect(openPdf(bytes)).rejects.toMatchObject({ name: 'InvalidPDFException' });
  });

  it('docx: a deflated ZIP that mammoth reads', async () => {
    const bytes = Buffer.from(docx(['Hello', 'Wörld & <more>']));
    expect(bytes.readUInt16LE(8)).toBe(8); // deflate
    const nameLength = bytes.readUInt16LE(26);
    const contentTypes = inflateRawSync(bytes.subarray(30 + nameLength, 30 + nameLength + bytes.readUInt32LE(18)));
    expect(crc32(contentTypes)).toBe(bytes.readUInt32LE(14));
    expect((await mammoth.extractRawText({ buffer: bytes })).value.trim()).toBe('Hello\n\nWörld & <more>');
  });

  it('corruptDocx and truncatedDocx: mammoth cannot open them', async () => {
    expect(Buffer.from(corruptDocx()).subarray(0, 4).toString('hex')).toBe('504b0304');
    await expect(mammoth.extractRawText({ buffer: Buffer.from(corruptDocx()) })).rejects.toThrow();
    await expect(mammoth.extractRawText({ buffer: Buffer.from(truncatedDocx()) })).rejects.toThrow();
  });

  it('legacyDoc and encryptedDocx: compound files naming Word streams', () => {
    expect(compoundFileNames(legacyDoc())).toEqual(['Root Entry', 'WordDocument', '1Table', '\u0005SummaryInformation']);
    expect(compoundFileNames(encryptedDocx())).toEqual(['Root Entry', 'EncryptionInfo', 'EncryptedPackage', '\u0006DataSpaces']);
    expect(Buffer.from(encryptedDocx()).includes(Buffer.from('EncryptedPackage', 'utf16le'))).toBe(true);
  });

  it('bytesOfSize: exactly n bytes, head first', async () => {
    expect(bytesOfSize(0)).toHaveLength(0);
    const big = bytesOfSize(20 * 1024 * 1024 + 1, png(2, 2));
    expect(big).toHaveLength(20 * 1024 * 1024 + 1);
    expect(await mimeOf(big)).toBe('image/png');
    expect(() => bytesOfSize(3, png(2, 2))).toThrow();
  });
});
