/**
 * POST /api/v1/responses with `input_image` and `input_file` parts, over HTTP against the local platform:
 * each way a file arrives (an upload's id, a base64 data URL, bare base64 with a file name, an https
 * URL) reaches the offline model as `files` do (images as vision input, documents read with
 * readPDF / readDocument), with the upload's checks and the webhook SSRF guard, every refusal naming
 * the part. The https URLs are served from 127.0.0.1 with a test CA, allowed the way webhook tests allow
 * their receiver (the wiring's network policy); every other loopback or private address stays refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../functions/conversations/domain/file';
import { chatWorld, expectChatError, patchSettings, secondApp, type ChatWorld } from '../support/chat';
import { FakeResolver } from '../support/fake-resolver';
import { corruptDocx, docx, jpeg, png, textPdf } from '../support/file-fixtures';
import { FileServer } from '../support/file-server';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { uploaded } from '../support/uploads';
import { RECEIVER_HOST, waitFor } from '../support/webhook-receiver';

const RESPONSES = '/api/v1/responses';
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const dataUrl = (type: string, bytes: Uint8Array) => `data:${type};base64,${b64(bytes)}`;

describe('input_image and input_file parts on /responses', () => {
  let p: TestPlatform;
  let w: ChatWorld;
  let files: FileServer;
  beforeAll(async () => {
    files = await FileServer.start();
    p = await startTestPlatform({
      visibilityDelayMs: 0,
      resolver: new FakeResolver().set(RECEIVER_HOST, ['127.0.0.1']).set('intranet.test', ['93.184.215.14', '10.0.0.7']),
      webhookNetwork: { allowAddresses: ['127.0.0.1'], trustedCaPem: files.caPem },
    });
    w = await chatWorld(p);
  });
  afterAll(async () => {
    await p.stop();
    await files.stop();
  });

  /** One user message: a text part, then `parts`. */
  const respond = (parts: unknown[], token = w.chatKey, extra: Record<string, unknown> = {}) =>
    p.call('POST', RESPONSES, {
      token,
      body: { model: w.appNameId, input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is attached?' }, ...parts] }], ...extra },
    });
  const answerOf = async (parts: unknown[]) => {
    const res = await respond(parts);
    expect(res.status, res.text).toBe(200);
    return res.body.output[0].content[0].text as string;
  };

  describe('reach the model as files do', () => {
    it('an image by data URL is vision input', async () => {
      expect(await answerOf([{ type: 'input_image', image_url: dataUrl('image/png', png(4, 4)), detail: 'low' }])).toBe(
        'Offline reply #1: I see 1 attached file. image.png (image, seen)',
      );
    });

    it('a PDF by file_data (a data URL with a filename) is read with readPDF', async () => {
      const text = await answerOf([
        { type: 'input_file', filename: 'contract.pdf', file_data: dataUrl('application/pdf', textPdf('Contract between A and B')) },
      ]);
      expect(text).toBe('Offline reply #1: I see 1 attached file. contract.pdf: "Contract between A and B"');
    });

    it('a DOCX by bare base64 with its filename is read with readDocument', async () => {
      const text = await answerOf([{ type: 'input_file', filename: 'report.docx', file_data: b64(docx(['Quarterly report'])) }]);
      expect(text).toBe('Offline reply #1: I see 1 attached file. report.docx: "Quarterly report"');
    });

    it('uploads by file_id: an image and a document', async () => {
      const image = await uploaded(p, w.chatKey, 'photo.jpg', jpeg());
      const pdf = await uploaded(p, w.chatKey, 'terms.pdf', textPdf('Terms apply'));
      const text = await answerOf([
        { type: 'input_image', file_id: image.fileId },
        { type: 'input_file', file_id: pdf.fileId },
      ]);
      expect(text).toBe('Offline reply #1: I see 2 attached files. photo.jpg (image, seen); terms.pdf: "Terms apply"');
    });

    it('an https URL is fetched once, and named by its last segment', async () => {
      files.serve('/docs/manual.pdf', { body: textPdf('Read the manual'), contentType: 'application/pdf' });
      files.serve('/img', { body: png(2, 2), contentType: 'image/png' });
      const text = await answerOf([
        { type: 'input_file', file_url: files.url('/docs/manual.pdf') },
        { type: 'input_image', image_url: files.url('/img') },
      ]);
      expect(text).toBe('Offline reply #1: I see 2 attached files. manual.pdf: "Read the manual"; image.png (image, seen)');
      expect(files.sent.get('/docs/manual.pdf')?.closedEarly).toBe(false);
    });

    it('a retry with the same Idempotency-Key gets the first answer and fetches nothing again', async () => {
      files.serve('/once.png', { body: png(3, 3), contentType: 'image/png' });
      const send = () =>
        p.call('POST', RESPONSES, {
          token: w.chatKey,
          headers: { 'Idempotency-Key': 'files-once-1' },
          body: { model: w.appNameId, input: [{ role: 'user', content: [{ type: 'input_image', image_url: files.url('/once.png') }] }] },
        });
      const first = await send();
      expect(first.status, first.text).toBe(200);
      const again = await send();
      expect(again.status, again.text).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(files.hits.get('/once.png')).toBe(1);
    });

    it('parts and the files field attach together, an upload named twice counting once', async () => {
      const pdf = await uploaded(p, w.chatKey, 'notes.pdf', textPdf('Meeting notes'));
      const res = await respond([{ type: 'input_file', file_id: pdf.fileId }], w.chatKey, {
        files: [{ fileId: pdf.fileId, fileName: 'notes.pdf' }],
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.output.at(-1).content[0].text).toBe('Offline reply #1: I see 1 attached file. notes.pdf: "Meeting notes"');
    });

    it("a stored image counts toward the app's image limit in its session, and image input can be switched off", async () => {
      const app = await secondApp(p, w.orgId, 'Vision App');
      await patchSettings(p, app.appId, { imageInput: { enabled: true, maxPerConversation: 1 } });
      const ask = (extra: Record<string, unknown>) =>
        p.call('POST', RESPONSES, {
          token: app.chatKey,
          body: { model: app.appNameId, input: [{ role: 'user', content: [{ type: 'input_image', image_url: dataUrl('image/jpeg', jpeg()) }] }], ...extra },
        });
      const first = await ask({});
      expect(first.status, first.text).toBe(200);
      const second = await ask({ previous_response_id: first.body.id });
      expect(second.status, second.text).toBe(422);
      expect(second.body).toEqual({
        error: 'IMAGE_LIMIT_REACHED',
        message: expect.stringMatching(/at most 1 images \(1 already attached, 1 in this request\)$/),
      });
      await patchSettings(p, app.appId, { imageInput: { enabled: false } });
      expect((await ask({})).body).toEqual({ error: 'IMAGE_INPUT_DISABLED', message: 'Image input is disabled for this app' });
    });
  });

  describe('are refused as files and uploads are, naming the part', () => {
    it("another app's file_id is a 404, as in files", async () => {
      const sibling = await secondApp(p, w.orgId);
      const theirs = await uploaded(p, sibling.chatKey, 'theirs.png', png(2, 2));
      expectChatError(await respond([{ type: 'input_image', file_id: theirs.fileId }]), 404, /^input\[0\]\.content\[1\]\.file_id: File not found: /);
    });

    it('an id that names no upload is a 404 naming the part', async () => {
      expectChatError(await respond([{ type: 'input_file', file_id: 'not-a-file' }]), 404, /^input\[0\]\.content\[1\]\.file_id: File not found: not-a-file$/);
    });

    it('bytes that are not their declared type are a 400 with the upload text', async () => {
      expectChatError(
        await respond([{ type: 'input_image', image_url: dataUrl('image/png', jpeg()) }]),
        400,
        /^input\[0\]\.content\[1\]\.image_url: The file's content does not match its extension \.png \(the bytes are image\/jpeg\)$/,
      );
    });

    it('an unreadable DOCX is a 422', async () => {
      expectChatError(
        await respond([{ type: 'input_file', filename: 'broken.docx', file_data: b64(corruptDocx()) }]),
        422,
        /^input\[0\]\.content\[1\]\.file_data: The \.docx file is corrupt/,
      );
    });

    it('an http URL, a private address literal and a host with one private address are 400s, and nothing is fetched', async () => {
      expectChatError(
        await respond([{ type: 'input_image', image_url: 'http://example.com/a.png' }]),
        400,
        /^input\[0\]\.content\[1\]\.image_url must be an https URL/,
      );
      expectChatError(
        await respond([{ type: 'input_file', file_url: 'https://192.168.1.20/a.pdf' }]),
        400,
        /^input\[0\]\.content\[1\]\.file_url: the URL could not be fetched: its host resolves to an address that is not public \(private\)/,
      );
      expectChatError(await respond([{ type: 'input_image', image_url: 'https://127.0.0.2/a.png' }]), 400, /not public \(loopback\)/);
      expectChatError(await respond([{ type: 'input_image', image_url: 'https://intranet.test/a.png' }]), 400, /not public \(private\)/);
    });

    it('a body over 20 MB is cut off while it streams in', async () => {
      files.serve('/huge.png', 'endless');
      expectChatError(
        await respond([{ type: 'input_image', image_url: files.url('/huge.png') }]),
        400,
        new RegExp(`^input\\[0\\]\\.content\\[1\\]\\.image_url: the URL could not be fetched: the body is over the ${MAX_UPLOAD_BYTES} bytes allowed$`),
      );
      const sent = files.sent.get('/huge.png')!;
      await waitFor(() => sent.closedEarly, 5_000, 'the file server to see the connection closed');
      // Read no further than the limit and what was in flight: far below what the server would send.
      expect(sent.bytes).toBeLessThan(MAX_UPLOAD_BYTES + 8 * 1024 * 1024);
    });

    it('a non-2xx answer and a redirect are 400s naming the status', async () => {
      files.serve('/gone.pdf', { status: 404, body: Buffer.from('no') });
      files.serve('/moved.pdf', { redirect: '/docs/manual.pdf' });
      expectChatError(await respond([{ type: 'input_file', file_url: files.url('/gone.pdf') }]), 400, /the server answered 404$/);
      expectChatError(
        await respond([{ type: 'input_file', file_url: files.url('/moved.pdf') }]),
        400,
        /the server answered 302 \(redirects are not followed\)$/,
      );
    });

    it('malformed parts are 400s', async () => {
      expectChatError(await respond([{ type: 'input_image' }]), 400, /^input\[0\]\.content\[1\] must have exactly one of image_url, file_id$/);
      expectChatError(await respond([{ type: 'input_file', file_data: b64(png(2, 2)) }]), 400, /needs input\[0\]\.content\[1\]\.filename/);
      expectChatError(await respond([{ type: 'input_image', image_url: 'data:image/png;base64,@@@@' }]), 400, /image_url is not valid base64$/);
      expectChatError(
        await respond([{ type: 'input_image', image_url: dataUrl('application/pdf', textPdf('x')) }]),
        400,
        /an image must be image\/png or image\/jpeg/,
      );
      const res = await p.call('POST', RESPONSES, {
        token: w.chatKey,
        body: { model: w.appNameId, input: [{ role: 'assistant', content: [{ type: 'input_image', image_url: dataUrl('image/png', png(2, 2)) }] }] },
      });
      expectChatError(res, 400, /^input\[0\]\.content\[0\] must be a text part/);
    });
  });
});
