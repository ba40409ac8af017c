import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoFileStore } from '../../functions/conversations/adapters/dynamo-file-store';
import type { StoredFile } from '../../functions/conversations/domain/file';
import { startTestTable, type TestTable } from '../support/dynamo';

const T0 = Date.parse('2026-11-01T00:00:00.000Z') * 1000;
const HOUR = 3_600_000_000;

function file(id: string, over: Partial<StoredFile> = {}): StoredFile {
  return {
    id,
    orgId: 'org-1',
    appId: 'app-1',
    uploaderKeyId: 'key-1',
    consumerId: null,
    fileName: `${id}.png`,
    mimeType: 'image/png',
    kind: 'image',
    size: 10,
    sha256: 'ab'.repeat(32),
    storageKey: `files/app-1/${id}/original`,
    status: 'pending',
    extraction: 'none',
    textKey: null,
    pages: null,
    ocrJobId: null,
    createdAtUs: T0,
    referencedAtUs: null,
    ...over,
  };
}

describe('DynamoFileStore', () => {
  let t: TestTable;
  let store: DynamoFileStore;
  beforeAll(async () => {
    t = await startTestTable();
    store = new DynamoFileStore(t.db, t.table);
  });
  afterAll(() => t.stop());

  const removableIds = async (beforeUs: number) => (await store.listRemovable(beforeUs, 100)).map((f) => f.id);

  it('creates a pending record, refuses a second create of the same id, and makes it ready once', async () => {
    await store.create(file('f-1'));
    await expect(store.create(file('f-1'))).rejects.toThrow();
    expect((await store.get('f-1'))!.status).toBe('pending');
    await store.markReady('f-1', { extraction: 'none', textKey: null, pages: null, ocrJobId: null });
    expect((await store.get('f-1'))!.status).toBe('ready');
    await expect(store.markReady('f-1', { extraction: 'none', textKey: null, pages: null, ocrJobId: null })).rejects.toThrow();
  });

  it('keeps an OCR result that arrived before the record became ready', async () => {
    await store.create(file('f-ocr', { kind: 'pdf', extraction: 'ocr_pending' }));
    await store.setExtraction('f-ocr', 'ready', 'files/app-1/f-ocr/text.txt');
    await store.markReady('f-ocr', { extraction: 'ocr_pending', textKey: null, pages: 2, ocrJobId: 'job-1' });
    expect(await store.get('f-ocr')).toMatchObject({
      status: 'ready',
      extraction: 'ready',
      textKey: 'files/app-1/f-ocr/text.txt',
      pages: 2,
      ocrJobId: 'job-1',
    });
  });

  it('lists files never referenced once they are older than the cutoff, and drops them on first reference', async () => {
    await store.create(file('u-old', { createdAtUs: T0 + 1 }));
    await store.create(file('u-new', { createdAtUs: T0 + 10 * HOUR }));
    await store.markReady('u-old', { extraction: 'none', textKey: null, pages: null, ocrJobId: null });
    expect(await removableIds(T0 + HOUR)).toEqual(expect.arrayContaining(['u-old']));
    expect(await removableIds(T0 + HOUR)).not.toContain('u-new');
    await store.attach('s-1', [{ id: 'u-old', kind: 'image' }], T0 + 2 * HOUR);
    await store.attach('s-1', [{ id: 'u-old', kind: 'image' }], T0 + 3 * HOUR);
    expect(await removableIds(T0 + 100 * HOUR)).not.toContain('u-old');
    expect((await store.get('u-old'))!.referencedAtUs).toBe(T0 + 2 * HOUR);
    expect(await store.listAttached('s-1')).toEqual([{ fileId: 'u-old', kind: 'image' }]);
  });

  it('releasing a session or an app makes its files unreachable and removable at once', async () => {
    for (const id of ['r-1', 'r-2']) {
      await store.create(file(id, { appId: 'app-r' }));
      await store.markReady(id, { extraction: 'none', textKey: null, pages: null, ocrJobId: null });
    }
    await store.attach('s-r', [{ id: 'r-1', kind: 'image' }], T0);
    await store.releaseSession('s-r', T0 + 1);
    await store.releaseSession('s-r', T0 + 2);
    expect(await store.get('r-1')).toBeUndefined();
    expect(await removableIds(0)).toContain('r-1');
    expect(await store.get('r-2')).toBeDefined();
    await store.releaseApp('app-r', T0 + 3);
    expect(await store.get('r-2')).toBeUndefined();
    expect(await removableIds(0)).toEqual(expect.arrayContaining(['r-1', 'r-2']));
    await store.remove('r-1');
    await store.remove('r-1');
    expect(await removableIds(0)).not.toContain('r-1');
  });

  it('does not re-reference a file released meanwhile', async () => {
    await store.create(file('x-1', { appId: 'app-x' }));
    await store.markReady('x-1', { extraction: 'none', textKey: null, pages: null, ocrJobId: null });
    await store.releaseApp('app-x', T0);
    await store.attach('s-x', [{ id: 'x-1', kind: 'image' }], T0 + 1);
    expect(await removableIds(0)).toContain('x-1');
  });
});
