/** The type of a file from its leading bytes, with file-type (magic numbers, and the ZIP entries of OOXML). */
import { fileTypeFromBuffer } from 'file-type';
import type { ContentSniffer } from '../../conversations/app/file-ports';

export class FileTypeSniffer implements ContentSniffer {
  async mimeOf(bytes: Uint8Array): Promise<string | undefined> {
    return (await fileTypeFromBuffer(bytes))?.mime;
  }
}
