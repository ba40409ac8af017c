/** The type of a file from its leading bytes, with file-type (magic numbers, and the ZIP entries of OOXML). */
import { fileTypeFromBuffer } from 'file-type';
import type { ContentSniffer } from '../../conversations/app/file-ports';

/**
 * A file's first bytes laid out at their place in a buffer of the file's full size, which records the
 * furthest byte file-type asks for. The rest is never written, so it takes no memory; file-type sees the
 * true size (some of its checks depend on it), and an answer that read only the first bytes is the one
 * the whole file gives.
 */
class StartOfFile extends Uint8Array {
  furthest = 0;

  override subarray(begin?: number, end?: number) {
    this.furthest = Math.max(this.furthest, end ?? this.length);
    return super.subarray(begin, end);
  }
}

export class FileTypeSniffer implements ContentSniffer {
  async mimeOf(bytes: Uint8Array): Promise<string | undefined> {
    return (await fileTypeFromBuffer(bytes))?.mime;
  }

  async mimeOfStart(start: Uint8Array, size: number): Promise<{ readonly mime: string | undefined } | null> {
    if (start.length >= size) return { mime: await this.mimeOf(start.subarray(0, size)) };
    const file = new StartOfFile(size);
    file.set(start);
    const mime = (await fileTypeFromBuffer(file))?.mime;
    return file.furthest <= start.length ? { mime } : null;
  }
}
