/**
 * The type of a file from its leading bytes, with file-type (magic numbers, and the ZIP entries of OOXML).
 * file-type is imported on the first sniff: its module graph is not side-effect free, so a static import
 * would be evaluated at every cold start of a function that holds it, file or not.
 */
import type { ContentSniffer } from '../../conversations/app/file-ports';

export class FileTypeSniffer implements ContentSniffer {
  async mimeOf(bytes: Uint8Array): Promise<string | undefined> {
    const { fileTypeFromBuffer } = await import('file-type');
    return (await fileTypeFromBuffer(bytes))?.mime;
  }
}
