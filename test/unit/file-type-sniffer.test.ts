/**
 * The type check from a file's first bytes gives the answer of the whole file, or says it cannot: an
 * upload sniffs an image from its first bytes alone and reads the file back only then.
 */
import { describe, expect, it } from 'vitest';
import { FileTypeSniffer } from '../../functions/chat/adapters/file-type-sniffer';
import { bytesOfSize, corruptDocx, docx, encryptedDocx, jpeg, legacyDoc, png, pngWithLongText, textPdf } from '../support/file-fixtures';

const sniffer = new FileTypeSniffer();
const KiB = 1024;

describe('FileTypeSniffer.mimeOfStart', () => {
  const files: [string, () => Uint8Array][] = [
    ['a PNG', () => png(4, 4)],
    ['a PNG padded to 20 MiB', () => bytesOfSize(20 * 1024 * KiB, png(4, 4))],
    ['a JPEG padded to 3 MiB', () => bytesOfSize(3 * 1024 * KiB, jpeg())],
    ['a PDF', () => textPdf('Hello')],
    ['a DOCX', () => docx(['Hello'])],
    ['a legacy .doc', legacyDoc],
    ['a password-protected DOCX', encryptedDocx],
    ['a corrupt DOCX', corruptDocx],
    ['a PNG with 300 KiB of text before its image data', () => pngWithLongText(300 * KiB)],
    ['an animated PNG whose acTL follows 300 KiB of text', () => pngWithLongText(300 * KiB, true)],
    ['text', () => new TextEncoder().encode('just some text '.repeat(20_000))],
  ];

  it.each(files)('%s: from any first bytes, the whole file’s answer or none', async (_label, make) => {
    const bytes = make();
    const whole = await sniffer.mimeOf(bytes);
    for (const first of [2, 64, 4100, 64 * KiB, 256 * KiB, bytes.length]) {
      const answer = await sniffer.mimeOfStart(bytes.subarray(0, first), bytes.length);
      if (answer !== null) expect(answer, `first ${first} bytes`).toEqual({ mime: whole });
    }
    expect(await sniffer.mimeOfStart(bytes, bytes.length)).toEqual({ mime: whole });
  });

  it('answers an image from its first 256 KiB, however large it is', async () => {
    const big = bytesOfSize(20 * 1024 * KiB, png(4, 4));
    expect(await sniffer.mimeOfStart(big.subarray(0, 256 * KiB), big.length)).toEqual({ mime: 'image/png' });
    const photo = bytesOfSize(20 * 1024 * KiB, jpeg());
    expect(await sniffer.mimeOfStart(photo.subarray(0, 256 * KiB), photo.length)).toEqual({ mime: 'image/jpeg' });
  });

  it('says it cannot when the answer lies past the first bytes', async () => {
    const animated = pngWithLongText(300 * KiB, true);
    expect(await sniffer.mimeOf(animated)).toBe('image/apng');
    expect(await sniffer.mimeOfStart(animated.subarray(0, 256 * KiB), animated.length)).toBeNull();
  });
});
