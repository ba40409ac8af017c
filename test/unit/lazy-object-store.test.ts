/** The bucket's store imported on first use: nothing loaded until a file is touched, then once; a failed load is tried again. */
import { describe, expect, it } from 'vitest';
import { LazyObjectStore } from '../../functions/conversations/adapters/lazy-object-store';
import type { ObjectStore } from '../../functions/conversations/app/file-ports';

function memoryStore(): ObjectStore {
  const objects = new Map<string, Buffer>();
  return {
    put: async (key, body) => void objects.set(key, Buffer.from(body)),
    get: async (key) => objects.get(key),
    deletePrefix: async (prefix) => {
      for (const key of [...objects.keys()]) if (key.startsWith(prefix)) objects.delete(key);
    },
  };
}

describe('LazyObjectStore', () => {
  it('loads nothing until the first call, then one store serves every call', async () => {
    let loads = 0;
    const lazy = new LazyObjectStore(async () => {
      loads++;
      return memoryStore();
    });
    expect(loads).toBe(0);
    await Promise.all([lazy.put('a/1', new Uint8Array([1]), 'x'), lazy.put('b/1', new Uint8Array([2]), 'x')]);
    await lazy.deletePrefix('a/');
    expect(await lazy.get('a/1')).toBeUndefined();
    expect(await lazy.get('b/1')).toEqual(Buffer.from([2]));
    expect(loads).toBe(1);
  });

  it('fails the call whose load failed, and loads again on the next one', async () => {
    let loads = 0;
    const lazy = new LazyObjectStore(async () => {
      if (++loads === 1) throw new Error('import failed');
      return memoryStore();
    });
    await expect(lazy.get('k')).rejects.toThrow('import failed');
    expect(await lazy.get('k')).toBeUndefined();
    expect(loads).toBe(2);
  });
});
