/**
 * The type of a file from its leading bytes, with file-type (magic numbers, and the ZIP entries of OOXML).
 * file-type is imported on the first sniff: its module graph is not side-effect free, so a static import
 * would be evaluated at every cold start of a function that holds it, file or not.
 */
import type { ContentSniffer } from '../../conversations/app/file-ports';

/**
 * A file's first bytes shown to file-type as the whole file: a view of them that gives the file's full
 * size as its length (some of file-type's checks depend on it) and records the furthest byte asked for.
 * Nothing past the first bytes exists, so no memory of the file's size is taken; an answer that asked
 * for none of them is the one the whole file gives.
 */
function startOfFile(start: Uint8Array, size: number): { readonly view: Uint8Array; furthest(): number } {
  const view = new Uint8Array(start.buffer, start.byteOffset, start.length);
  let furthest = 0;
  Object.defineProperty(view, 'length', { value: size });
  Object.defineProperty(view, 'subarray', {
    value: (begin?: number, end?: number) => {
      furthest = Math.max(furthest, end ?? size);
      return Uint8Array.prototype.subarray.call(view, begin, end);
    },
  });
  return { view, furthest: () => furthest };
}

export class FileTypeSniffer implements ContentSniffer {
  async mimeOf(bytes: Uint8Array): Promise<string | undefined> {
    const { fileTypeFromBuffer } = await import('file-type');
    return (await fileTypeFromBuffer(bytes))?.mime;
  }

  async mimeOfStart(start: Uint8Array, size: number): Promise<{ readonly mime: string | undefined } | null> {
    if (start.length >= size) return { mime: await this.mimeOf(start.subarray(0, size)) };
    const file = startOfFile(start, size);
    const { fileTypeFromBuffer } = await import('file-type');
    const mime = (await fileTypeFromBuffer(file.view))?.mime;
    return file.furthest() <= start.length ? { mime } : null;
  }
}
