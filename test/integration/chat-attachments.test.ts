/**
 * Files in chat turns over HTTP against the local platform (spec area B): images as vision
 * input, PDF and DOCX read through readPDF / readDocument (OCR for a scanned PDF, offline), the tool
 * markers in area A's export, the app's image-input settings, references another tenant cannot use,
 * and the file lifecycle (session and app deletion, unreferenced files cleaned up after 24 hours).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFLINE_QUOTE_CHARS } from '../../functions/chat/adapters/offline-chat-model';
import { UNREFERENCED_FILE_RETENTION_HOURS } from '../../functions/conversations/domain/file';
import { chat, chatWorld, expectChatError, patchSettings, secondApp, turn, type ChatWorld } from '../support/chat';
import { TestClock } from '../support/clock';
import { docx, jpeg, png, scannedPdf, textPdf } from '../support/file-fixtures';
import { startTestPlatform, type TestPlatform } from '../support/platform';
import { itemsUnder, tableOf } from '../support/store';
import { uploaded } from '../support/uploads';

const CONTRACT = 'This Agreement is made between Acme Corp and Globex Ltd. '.repeat(8);

describe('chat turns with files', () => {
  const clock = new TestClock('2026-05-04T09:00:00.000Z');
  let p: TestPlatform;
  let w: ChatWorld;
  beforeAll(async () => {
    p = await startTestPlatform({ clock, visibilityDelayMs: 0 });
    w = await chatWorld(p);
  });
  afterAll(() => p.stop());

  const ask = (
    world: Pick<ChatWorld, 'chatKey' | 'appNameId'>,
    files: { fileId: string; fileName: string }[],
    content = 'What is in these files?',
    extra: Record<string, unknown> = {},
  ) => chat(p, world.chatKey, { model: world.appNameId, messages: [{ role: 'user', content }], files, ...extra });

  async function transcript(world: ChatWorld, sessionId: string) {
    const res = await p.call('GET', `/api/v1/org/sessions/${sessionId}/messages?include=tool_details`, { token: world.orgKey });
    expect(res.status, res.text).toBe(200);
    return res.body.data.messages as { role: string; content: string; tools?: { name?: string; success?: boolean }[] }[];
  }

  it('reads a PDF through readPDF: the reply quotes its first 200 characters and the export shows the marker', async () => {
    const pdf = await uploaded(p, w.chatKey, 'contract.pdf', textPdf(CONTRACT));
    const res = await ask(w, [{ fileId: pdf.fileId, fileName: 'contract.pdf' }], 'Summarize the contract');
    expect(res.status, res.text).toBe(200);
    const reply = res.body.choices[0].message.content as string;
    expect(reply).toContain('contract.pdf');
    // The PDF's lines break at 90 characters: compare with whitespace folded.
    const quoted = /contract\.pdf: "([^"]*)"/.exec(reply)![1]!;
    expect(quoted.length).toBe(OFFLINE_QUOTE_CHARS);
    expect(quoted.replace(/\s+/g, ' ')).toBe(CONTRACT.replace(/\s+/g, ' ').slice(0, quoted.replace(/\s+/g, ' ').length));
    const messages = await transcript(w, res.body.chatSessionId);
    // The user's message is stored as sent: the document is not inlined.
    expect(messages.map((m) => [m.role, m.content])[0]).toEqual(['user', 'Summarize the contract']);
    expect(messages[1]!.tools).toEqual([expect.objectContaining({ name: 'readPDF', success: true })]);
  });

  it('reads a DOCX through readDocument', async () => {
    const doc = await uploaded(p, w.chatKey, 'report.docx', docx(['Quarterly revenue grew 12 percent.', 'Costs stayed flat.']));
    const res = await ask(w, [{ fileId: doc.fileId, fileName: 'report.docx' }]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.choices[0].message.content).toMatch(/report\.docx: "Quarterly revenue grew 12 percent\./);
    const messages = await transcript(w, res.body.chatSessionId);
    expect(messages[1]!.tools).toEqual([expect.objectContaining({ name: 'readDocument', success: true })]);
  });

  it('reads a scanned PDF with OCR, offline', async () => {
    const scan = await uploaded(p, w.chatKey, 'invoice.pdf', scannedPdf(['SCANNED INVOICE 4711', 'TOTAL 99 EUR']));
    const res = await ask(w, [{ fileId: scan.fileId, fileName: 'invoice.pdf' }], 'What is the total?');
    expect(res.status, res.text).toBe(200);
    expect(res.body.choices[0].message.content).toMatch(/SCANNED INVOICE 4711/);
    expect(res.body.choices[0].message.content).toMatch(/TOTAL 99 EUR/);
  }, 60_000);

  it('passes images as vision input and names every attached file', async () => {
    const a = await uploaded(p, w.chatKey, 'photo.jpg', jpeg());
    const b = await uploaded(p, w.chatKey, 'chart.png', png(6, 6));
    const res = await ask(w, [
      { fileId: a.fileId, fileName: 'photo.jpg' },
      { fileId: b.fileId, fileName: 'chart.png' },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.choices[0].message.content).toMatch(/photo\.jpg \(image, seen\).*chart\.png \(image, seen\)/);
  });

  it('streams a turn with a document the same way', async () => {
    const pdf = await uploaded(p, w.chatKey, 'stream.pdf', textPdf('Streaming works with attachments'));
    const res = await ask(w, [{ fileId: pdf.fileId, fileName: 'stream.pdf' }], 'Read it', { stream: true });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Streaming');
    expect(res.text).toContain('[DONE]');
  });

  it('keeps documents of earlier turns readable in a continued session', async () => {
    const pdf = await uploaded(p, w.chatKey, 'first.pdf', textPdf('First turn document'));
    const first = await turn(p, w, 'Here is a file', { files: [{ fileId: pdf.fileId, fileName: 'first.pdf' }] });
    const next = await turn(p, w, 'Thanks', { chatSessionId: first.chatSessionId });
    expect(next.choices[0]!.message.content).toBe('Offline reply #2: Thanks');
  });

  describe('references the caller may use', () => {
    it('answers 404 for a file of another app of the same org, naming only the reference', async () => {
      const other = await secondApp(p, w.orgId);
      const theirs = await uploaded(p, other.chatKey, 'secret.pdf', textPdf('secret'));
      const res = await ask(w, [{ fileId: theirs.fileId, fileName: 'x.pdf' }]);
      expectChatError(res, 404, new RegExp(`File not found: ${theirs.fileId}`));
      expect(res.text).not.toContain('secret');
    });

    it('answers 404 for a file of another org, an unknown id and a non-UUID', async () => {
      const stranger = await chatWorld(p);
      const theirs = await uploaded(p, stranger.chatKey, 'a.png', png(2, 2));
      for (const fileId of [theirs.fileId, randomUUID(), 'not-a-uuid']) {
        expectChatError(await ask(w, [{ fileId, fileName: 'a.png' }]), 404, /File not found/);
      }
    });

    it('answers 404 when one reference of several is not accessible, and writes nothing', async () => {
      const mine = await uploaded(p, w.chatKey, 'mine.png', png(2, 2));
      const before = await p.call('GET', '/api/v1/org/sessions', { token: w.orgKey });
      expectChatError(
        await ask(w, [
          { fileId: mine.fileId, fileName: 'mine.png' },
          { fileId: randomUUID(), fileName: 'b.png' },
        ]),
        404,
      );
      const after = await p.call('GET', '/api/v1/org/sessions', { token: w.orgKey });
      expect(after.body.data.length).toBe(before.body.data.length);
    });

    it('answers 400 for files without a new user message', async () => {
      const mine = await uploaded(p, w.chatKey, 'mine.png', png(2, 2));
      const res = await chat(p, w.chatKey, {
        model: w.appNameId,
        messages: [{ role: 'system', content: 'be brief' }],
        files: [{ fileId: mine.fileId, fileName: 'mine.png' }],
      });
      expectChatError(res, 400, /user message/);
    });
  });

  describe('no remote URLs, base64 or multipart on /chat/completions', () => {
    it('answers 400 to image_url parts (remote or data URL) and to a multipart body', async () => {
      const png64 = Buffer.from(png(2, 2)).toString('base64');
      for (const url of ['https://example.com/cat.png', `data:image/png;base64,${png64}`]) {
        const res = await chat(p, w.chatKey, {
          model: w.appNameId,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'look' },
                { type: 'image_url', image_url: { url } },
              ],
            },
          ],
        });
        expectChatError(res, 400, /remote URLs, base64 and multipart content are not supported/);
      }
      const form = new FormData();
      form.append('model', w.appNameId);
      form.append('file', new Blob([png(2, 2)]), 'a.png');
      const multipartRes = await fetch(`${p.baseUrl}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${w.chatKey}` },
        body: form,
      });
      expect(multipartRes.status).toBe(400);
      expect(await multipartRes.json()).toEqual({ error: 'Content-Type must be application/json' });
    });
  });

  describe('image-input settings', () => {
    it('answers 422 IMAGE_INPUT_DISABLED when the app disables images (documents still work)', async () => {
      const v = await chatWorld(p);
      await patchSettings(p, v.appId, { imageInput: { enabled: false } });
      const img = await uploaded(p, v.chatKey, 'a.png', png(2, 2));
      const res = await ask(v, [{ fileId: img.fileId, fileName: 'a.png' }]);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 'IMAGE_INPUT_DISABLED', message: expect.any(String) });
      const pdf = await uploaded(p, v.chatKey, 'a.pdf', textPdf('fine'));
      expect((await ask(v, [{ fileId: pdf.fileId, fileName: 'a.pdf' }])).status).toBe(200);
    });

    it('answers 422 IMAGE_LIMIT_REACHED once the conversation would pass its image limit', async () => {
      const v = await chatWorld(p);
      await patchSettings(p, v.appId, { imageInput: { enabled: true, maxPerConversation: 2 } });
      const imgs = await Promise.all([1, 2, 3].map((i) => uploaded(p, v.chatKey, `i${i}.png`, png(2, 2))));
      const ref = (i: number) => ({ fileId: imgs[i]!.fileId, fileName: `i${i + 1}.png` });
      expect((await ask(v, [ref(0), ref(1), ref(2)])).body).toEqual({ error: 'IMAGE_LIMIT_REACHED', message: expect.stringContaining('2') });
      const first = await ask(v, [ref(0), ref(1)]);
      expect(first.status, first.text).toBe(200);
      const sessionId = first.body.chatSessionId;
      // The same images again do not count twice; a third one passes the limit.
      expect((await ask(v, [ref(0)], 'again', { chatSessionId: sessionId })).status).toBe(200);
      const over = await ask(v, [ref(2)], 'one more', { chatSessionId: sessionId });
      expect(over.status).toBe(422);
      expect(over.body.error).toBe('IMAGE_LIMIT_REACHED');
      // A new conversation starts from zero.
      expect((await ask(v, [ref(2)])).status).toBe(200);
    });
  });

  describe('the file lifecycle', () => {
    const runCleanup = async () => {
      const res = await p.admin('POST', '/jobs/file-cleanup/runs', {});
      expect(res.status, res.text).toBe(200);
      return res.body.data.result as { removed: number };
    };
    const storageKey = (v: ChatWorld, fileId: string) => `files/${v.appId}/${fileId}/original`;

    it('deleting a session removes its files', async () => {
      const v = await chatWorld(p);
      const pdf = await uploaded(p, v.chatKey, 'a.pdf', textPdf('to be deleted'));
      const t = await turn(p, v, 'read', { files: [{ fileId: pdf.fileId, fileName: 'a.pdf' }] });
      expect((await p.admin('DELETE', `/sessions/${t.chatSessionId}`)).status).toBe(200);
      expectChatError(await ask(v, [{ fileId: pdf.fileId, fileName: 'a.pdf' }]), 404);
      await runCleanup();
      expect(await p.deps.objects.get(storageKey(v, pdf.fileId))).toBeUndefined();
      expect(await itemsUnder(tableOf(p), `FILE#${pdf.fileId}`)).toEqual([]);
    });

    it('deleting an app removes its files, referenced or not', async () => {
      const v = await chatWorld(p);
      const used = await uploaded(p, v.chatKey, 'used.png', png(2, 2));
      const unused = await uploaded(p, v.chatKey, 'unused.png', png(2, 2));
      await turn(p, v, 'look', { files: [{ fileId: used.fileId, fileName: 'used.png' }] });
      expect((await p.admin('DELETE', `/apps/${v.appId}`)).status).toBe(202);
      await p.drainQueues();
      await runCleanup();
      for (const f of [used, unused]) expect(await p.deps.objects.get(storageKey(v, f.fileId))).toBeUndefined();
    });

    it(`removes files never referenced after ${UNREFERENCED_FILE_RETENTION_HOURS} hours and keeps referenced ones`, async () => {
      const v = await chatWorld(p);
      const kept = await uploaded(p, v.chatKey, 'kept.png', png(2, 2));
      const dropped = await uploaded(p, v.chatKey, 'dropped.png', png(2, 2));
      await turn(p, v, 'look', { files: [{ fileId: kept.fileId, fileName: 'kept.png' }] });
      clock.advance((UNREFERENCED_FILE_RETENTION_HOURS - 1) * 3_600_000);
      await runCleanup();
      expect(await p.deps.objects.get(storageKey(v, dropped.fileId))).toBeDefined();
      clock.advance(2 * 3_600_000);
      await runCleanup();
      expect(await p.deps.objects.get(storageKey(v, dropped.fileId))).toBeUndefined();
      expect(await p.deps.objects.get(storageKey(v, kept.fileId))).toBeDefined();
      expect((await ask(v, [{ fileId: kept.fileId, fileName: 'kept.png' }])).status).toBe(200);
    });
  });
});
