/**
 * An object store whose client is imported on its first use. The S3 client is a large part of a bundle
 * (with its checksums and middleware), and most requests of a function that holds a bucket never touch
 * it: a chat turn without files, a session delete of a session without any. With code splitting the
 * client is then neither read nor compiled at a cold start.
 */
import { loadOnce } from '../../kernel/adapters/load-once';
import type { ObjectStore } from '../app/file-ports';

export class LazyObjectStore implements ObjectStore {
  private readonly loaded: () => Promise<ObjectStore>;

  /** `load` imports the store's module and builds it (once; a failed import is tried again on the next call). */
  constructor(load: () => Promise<ObjectStore>) {
    this.loaded = loadOnce(load);
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    return (await this.loaded()).put(key, body, contentType);
  }

  async get(key: string): Promise<Buffer | undefined> {
    return (await this.loaded()).get(key);
  }

  async deletePrefix(prefix: string): Promise<void> {
    return (await this.loaded()).deletePrefix(prefix);
  }
}
