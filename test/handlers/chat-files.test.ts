/**
 * POST /api/v1/chat/files over HTTP against the local platform: every row of the spec's upload error
 * table (400, 401, 422, 429, 503), the 201 shape per accepted type, the 20 MB edge on both sides, and
 * a body cut off unread once it passes the limit.
 */
import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../functions/conversations/domain/file';
import { chat, chatWorld, createChatKey, expectChatError, type ChatWorld } from '../support/chat';
import { TestClock } from '../support/clock';
import { corruptDocx, docx, encryptedDocx, encryptedPdf, jpeg, legacyDoc, png, scannedPdf, textPdf, truncatedPdf } from '../support/file-fixtures';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { itemsUnder, tableOf } from '../support/store';
import { FILES, MiB, multipart, rawUpload, streamedUpload, upload, uploaded } from '../support/uploads';

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A PNG padded with trailing bytes to exactly `size` bytes (its leading bytes stay a PNG). */
function pngOfSize(size: number): Buffer {
  const head = Buffer.from(png(4, 4));
  return Buffer.concat([head, Buffer.alloc(size - head.length, 0)]);
}

describe('POST /api/v1/chat/files', () => {
  // Pinned: the rate-limit window only moves when a test says so.
  const clock = new TestClock('2026-03-02T10:00:00.000Z', false);
  let p: TestPlatform;
  let w: ChatWorld;
  beforeAll(async () => {
    p = await startTestPlatform({ clock });
    w = await chatWorld(p);
  });
  afterAll(() => p.stop());

  describe('201: accepted types', () => {
    const cases: [string, () => Uint8Array, string][] = [
      ['photo.jpg', jpeg, 'image/jpeg'],
      ['photo.JPEG', jpeg, 'image/jpeg'],
      ['diagram.png', () => png(8, 8), 'image/png'],
      ['contract.pdf', () => textPdf('Contract between A and B'), 'application/pdf'],
      ['scan.pdf', () => scannedPdf(['SCANNED']), 'application/pdf'],
      ['report.docx', () => docx(['Quarterly report']), DOCX_MIME],
    ];
    it.each(cases)('%s is stored and answered as { fileId, fileName, mimeType, size }', async (name, make, mimeType) => {
      const bytes = make();
      const res = await upload(p, w.chatKey, { name, bytes });
      expect(res.status, res.text).toBe(201);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ fileId: expect.stringMatching(UUID), fileName: name, mimeType, size: bytes.length });
    });

    it('records app, uploader key, type, size, sha256 and storage key in the table', async () => {
      const bytes = png(3, 3);
      const file = await uploaded(p, w.chatKey, 'x.png', bytes);
      const [item] = await itemsUnder(tableOf(p), `FILE#${file.fileId}`);
      const { createHash } = await import('node:crypto');
      expect(item).toMatchObject({
        appId: w.appId,
        orgId: w.orgId,
        uploaderKeyId: w.chatKeyId,
        fileName: 'x.png',
        mimeType: 'image/png',
        kind: 'image',
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        status: 'ready',
        extraction: 'none',
        storageKey: `files/${w.appId}/${file.fileId}/original`,
      });
      expect(await p.deps.objects.get(String(item!.storageKey))).toEqual(Buffer.from(bytes));
    });
  });

  describe('the 20 MB limit (20 MiB = 20,971,520 bytes)', () => {
    it('accepts a file of exactly 20 MiB', async () => {
      const res = await upload(p, w.chatKey, { name: 'edge.png', bytes: pngOfSize(MAX_UPLOAD_BYTES) });
      expect(res.status, res.text).toBe(201);
      expect(res.body.size).toBe(20 * MiB);
    });

    it('refuses a file one byte over with 400', async () => {
      expectChatError(await upload(p, w.chatKey, { name: 'edge.png', bytes: pngOfSize(MAX_UPLOAD_BYTES + 1) }), 400, /20 MB/);
    });

    it('cuts a chunked body off as soon as the file passes the limit, without reading the rest', async () => {
      const r = await streamedUpload(p, w.chatKey, { fileBytes: 200 * MiB, declareLength: false });
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body).error).toMatch(/20 MB/);
      // The server stopped reading near 20 MiB; socket buffers hold a few MiB at most.
      expect(r.sentBeforeAnswer).toBeLessThan(28 * MiB);
    });

    it('refuses a declared Content-Length over the limit before reading the body', async () => {
      const r = await streamedUpload(p, w.chatKey, { fileBytes: 200 * MiB, declareLength: true });
      expect(r.status).toBe(400);
      expect(r.sentBeforeAnswer).toBeLessThan(8 * MiB);
    });
  });

  describe('400: malformed requests', () => {
    const file = (data: Uint8Array) => ({ name: 'file', filename: 'a.png', contentType: 'image/png', data });
    it.each([
      ['a JSON body', () => ({ body: JSON.stringify({ file: 'x' }), type: 'application/json' }), /multipart\/form-data/],
      ['no Content-Type', () => ({ body: 'x', type: undefined }), /multipart\/form-data/],
      ['multipart without a boundary', () => ({ body: 'x', type: 'multipart/form-data' }), /boundary/],
      [
        'a body with no closing boundary',
        () => ({ body: multipart([file(png(2, 2))]).body.subarray(0, 60), type: multipart([]).contentType }),
        /Malformed multipart|incomplete/,
      ],
      [
        'garbage under a multipart type',
        () => ({ body: 'not multipart at all', type: 'multipart/form-data; boundary=zzz' }),
        /Missing multipart part|Malformed/,
      ],
      ['no file part', () => ({ body: multipart([]).body, type: multipart([]).contentType }), /Missing multipart part named "file"/],
      ['a text field only', () => ({ ...asBody(multipart([{ name: 'file', data: 'hello' }])) }), /field/],
      ['the file under another name', () => asBody(multipart([{ ...file(png(2, 2)), name: 'upload' }])), /part named "file"/],
      ['two files', () => asBody(multipart([file(png(2, 2)), file(png(2, 2))])), /One file per upload/],
      ['a file and a field', () => asBody(multipart([file(png(2, 2)), { name: 'purpose', data: 'vision' }])), /single part|field/],
      ['a file part without a filename', () => asBody(multipart([{ name: 'file', contentType: 'image/png', data: png(2, 2) }])), /filename|field/],
    ])('%s', async (_label, make, message) => {
      const { body, type } = make();
      expectChatError(await rawUpload(p, w.chatKey, body, type), 400, message);
    });

    function asBody(m: { body: Buffer; contentType: string }) {
      return { body: m.body, type: m.contentType };
    }

    it('an empty file', async () => {
      expectChatError(await upload(p, w.chatKey, { name: 'empty.png', bytes: new Uint8Array(0) }), 400, /empty/);
    });

    it.each(['notes.txt', 'anim.gif', 'old.doc', 'image.webp', 'no-extension', 'archive.zip', 'trailing.dot.'])('unsupported extension: %s', async (name) => {
      expectChatError(await upload(p, w.chatKey, { name, bytes: png(2, 2) }), 400, /Unsupported file type/);
    });

    it.each([
      ['PNG bytes named .jpg', 'photo.jpg', () => png(2, 2)],
      ['JPEG bytes named .png', 'photo.png', jpeg],
      ['text named .pdf', 'doc.pdf', () => new TextEncoder().encode('just some text, not a PDF')],
      ['PDF bytes named .docx', 'report.docx', () => textPdf('hello')],
      ['PNG bytes named .pdf', 'scan.pdf', () => png(2, 2)],
      ['DOCX bytes named .pdf', 'report.pdf', () => docx(['x'])],
    ])('bytes not matching the extension: %s', async (_label, name, make) => {
      expectChatError(await upload(p, w.chatKey, { name, bytes: make() }), 400, /does not match its extension/);
    });
  });

  describe('422: identified but unreadable', () => {
    it.each([
      ['a password-protected PDF', 'locked.pdf', encryptedPdf, /password/i],
      ['a truncated PDF', 'cut.pdf', truncatedPdf, /corrupt|truncated/i],
      ['a corrupt DOCX', 'broken.docx', corruptDocx, /corrupt/i],
      ['a legacy .doc named .docx', 'old.docx', legacyDoc, /legacy|\.doc\b/i],
      ['a password-protected DOCX', 'locked.docx', encryptedDocx, /password/i],
    ])('%s', async (_label, name, make, message) => {
      expectChatError(await upload(p, w.chatKey, { name, bytes: make() }), 422, message);
    });
  });

  describe('401: the same chat key as completions', () => {
    it('answers 401 { error } to a missing, unknown or malformed key', async () => {
      expectChatError(await upload(p, undefined, { name: 'a.png', bytes: png(2, 2) }), 401);
      expectChatError(await upload(p, `svc_chat_${'x'.repeat(40)}`, { name: 'a.png', bytes: png(2, 2) }), 401);
      expectChatError(await upload(p, w.orgKey, { name: 'a.png', bytes: png(2, 2) }), 401);
    });

    it('refuses a revoked key', async () => {
      const key = await createChatKey(p, w.appId);
      expect((await upload(p, key.key, { name: 'a.png', bytes: png(2, 2) })).status).toBe(201);
      expect((await p.admin('DELETE', `/keys/${key.id}`)).status).toBe(200);
      expectChatError(await upload(p, key.key, { name: 'a.png', bytes: png(2, 2) }), 401);
    });
  });

  describe('X-Chat-Session-ID', () => {
    it('answers 404 for a session that is not the app’s', async () => {
      expectChatError(await upload(p, w.chatKey, { name: 'a.png', bytes: png(2, 2) }, { 'X-Chat-Session-ID': randomUUID() }), 404, /session/i);
    });
  });

  describe('429: 120 a minute per key, counted with /chat/completions', () => {
    it('the 121st request of the minute, whichever endpoint, is 429 with Retry-After', async () => {
      clock.advance(3_600_000);
      const r = await chatWorld(p);
      for (let i = 0; i < 60; i++) {
        expect((await chat(p, r.chatKey, { model: r.appNameId, messages: [{ role: 'user', content: `hi ${i}` }] })).status).toBe(200);
      }
      for (let i = 0; i < 60; i++) expect((await upload(p, r.chatKey, { name: 'a.png', bytes: png(2, 2) })).status).toBe(201);
      const over = await upload(p, r.chatKey, { name: 'a.png', bytes: png(2, 2) });
      expectChatError(over, 429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expectChatError(await chat(p, r.chatKey, { model: r.appNameId, messages: [{ role: 'user', content: 'one more' }] }), 429);
      clock.advance(3_600_000);
    });
  });

  describe('503: object storage down', () => {
    it('answers 503 with Retry-After, and the file it did not store cannot be referenced', async () => {
      const s3 = (p.deps.objects as unknown as { s3: { middlewareStack: { add: (...args: unknown[]) => void; remove: (name: string) => void } } }).s3;
      const name = 'fail-s3';
      s3.middlewareStack.add(
        () => async () => {
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED', $metadata: {} });
        },
        { step: 'finalizeRequest', name },
      );
      let res: Awaited<ReturnType<typeof upload>>;
      try {
        res = await upload(p, w.chatKey, { name: 'down.png', bytes: png(2, 2) });
      } finally {
        s3.middlewareStack.remove(name);
      }
      expectChatError(res, 503, /storage/i);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      // The record it wrote first stays pending, and no reference reaches it.
      const t = tableOf(p);
      const listed = await t.db.send(
        new QueryCommand({
          TableName: t.table,
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk',
          ExpressionAttributeValues: { ':pk': `APPFILES#${w.appId}` },
        }),
      );
      const pending = (listed.Items ?? []).filter((i) => i.status === 'pending');
      expect(pending.map((i) => i.fileName)).toEqual(['down.png']);
      const ref = await chat(p, w.chatKey, {
        model: w.appNameId,
        messages: [{ role: 'user', content: 'look' }],
        files: [{ fileId: pending[0]!.id, fileName: 'down.png' }],
      });
      expectChatError(ref, 404, /File not found/);
    });
  });

  it('is served at the spec path only for POST', async () => {
    const res = await p.call('GET', FILES, { token: w.chatKey });
    expect(res.status).not.toBe(200);
  });
});
