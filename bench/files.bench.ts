/**
 * POST /api/v1/chat/files on the local platform, run as its own process (`node --import tsx
 * functions/local/main.ts`) so its memory is measured alone:
 * - upload time and throughput for 1 MiB and 20 MiB files, beside the same multipart body posted to a
 *   bare Node server (reads and discards) in the same run, and the server's peak RSS growth per upload
 *   as a multiple of the file size (sampled from /proc every 5 ms; target well under 3x);
 * - beside them, the floor the embedded object store sets: the same bytes stored by a bare PutObject
 *   into an s3rver like the platform's (s3rver-floor.ts);
 * - time to refuse a 200 MiB body, chunked (cut off at the limit) and with a declared length, and how
 *   many bytes the client got to send first;
 * - PDF text extraction per page (the parser adapter beside unpdf called bare) and OCR per page (the
 *   local tesseract engine beside one bare tesseract recognition).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { PdfDocxDocumentParser } from '../functions/chat/adapters/pdf-docx-document-parser';
import { TesseractOcrEngine } from '../functions/chat/adapters/tesseract-ocr-engine';
import type { OcrCompletion, ObjectStore } from '../functions/conversations/app/file-ports';
import { png, scannedPdf, textPdf } from '../test/support/file-fixtures';
import { streamedUpload } from '../test/support/uploads';
import { startBareObjectStore } from './s3rver-floor';
import { percentile, table } from './stats';

const MiB = 1024 * 1024;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the child process');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A bare HTTP server that reads and discards each body: the transfer baseline. */
const BARE_SERVER = `require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.end('{}')); }).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));`;

function multipartBody(name: string, bytes: Uint8Array): { body: Buffer; contentType: string } {
  const boundary = 'bench-boundary-5d1e';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return { body: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

function paddedPng(size: number): Buffer {
  const head = Buffer.from(png(4, 4));
  return Buffer.concat([head, Buffer.alloc(size - head.length, 7)]);
}

async function post(
  url: string,
  token: string,
  body: Buffer,
  contentType: string,
  sampler?: { pid: number; peak: number },
): Promise<{ ms: number; status: number }> {
  let timer: NodeJS.Timeout | undefined;
  if (sampler) timer = setInterval(() => (sampler.peak = Math.max(sampler.peak, rssOf(sampler.pid))), 5);
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType }, body });
  await res.text();
  const ms = performance.now() - t0;
  if (timer) clearInterval(timer);
  return { ms, status: res.status };
}

export async function benchFiles(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-bench-files-'));
  const [port, barePort] = [await freePort(), await freePort()];
  const children: ChildProcess[] = [];
  const floor = await startBareObjectStore();
  try {
    const platform = spawn(process.execPath, ['--import', 'tsx', 'functions/local/main.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'ERROR' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(platform);
    const bare = spawn(process.execPath, ['-e', BARE_SERVER], { env: { ...process.env, PORT: String(barePort) }, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(bare);
    await waitFor(() => existsSync(join(dataDir, 'demo.json')), 60_000);
    const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8')) as { chatKey: string; baseUrl?: string };
    const base = `http://127.0.0.1:${port}`;
    const url = `${base}/api/v1/chat/files`;
    const bareUrl = `http://127.0.0.1:${barePort}/`;
    await new Promise((r) => bare.stdout!.once('data', r));

    // Uploads: warm-up, then samples. Each upload is counted in the key's 120/min window: stay below.
    const rows: Record<string, string | number>[] = [];
    for (const [label, size, n] of [
      ['1 MiB', MiB, 30],
      ['20 MiB', 20 * MiB, 8],
    ] as const) {
      const file = paddedPng(size);
      const { body, contentType } = multipartBody('bench.png', file);
      for (let i = 0; i < 3; i++) {
        await post(url, demo.chatKey, body, contentType);
        await post(bareUrl, demo.chatKey, body, contentType);
        await floor.put(file);
      }
      const times: number[] = [];
      const bareTimes: number[] = [];
      const putTimes: number[] = [];
      const growth: number[] = [];
      for (let i = 0; i < n; i++) {
        const sampler = { pid: platform.pid!, peak: 0 };
        const before = rssOf(platform.pid!);
        sampler.peak = before;
        const r = await post(url, demo.chatKey, body, contentType, sampler);
        if (r.status !== 201) throw new Error(`upload answered ${r.status}`);
        times.push(r.ms);
        growth.push((sampler.peak - before) / size);
        bareTimes.push((await post(bareUrl, demo.chatKey, body, contentType)).ms);
        putTimes.push(await floor.put(file));
      }
      const p50 = percentile(times, 50);
      const bare50 = percentile(bareTimes, 50);
      rows.push({
        file: label,
        uploads: n,
        'p50 ms': p50.toFixed(1),
        'MiB/s': (size / MiB / (p50 / 1000)).toFixed(1),
        'bare p50 ms': bare50.toFixed(1),
        ratio: (p50 / bare50).toFixed(1),
        'peak RSS growth / size (max)': Math.max(...growth).toFixed(2),
        median: percentile(growth, 50).toFixed(2),
        's3rver PutObject p50 ms': percentile(putTimes, 50).toFixed(1),
      });
    }
    console.log('\nUploads (server in its own process; bare = the same body to a Node server that discards it)\n');
    console.log("s3rver column: the file's bytes stored bare, by one PutObject, into an s3rver in this process\n");
    table(rows);

    // Refusing 200 MiB.
    const refusals: Record<string, string | number>[] = [];
    const bareTwenty = await post(bareUrl, demo.chatKey, multipartBody('x.png', paddedPng(20 * MiB)).body, 'multipart/form-data; boundary=bench-boundary-5d1e');
    for (const declareLength of [false, true]) {
      const t0 = performance.now();
      const r = await streamedUpload({ baseUrl: base }, demo.chatKey, { fileBytes: 200 * MiB, declareLength });
      refusals.push({
        body: declareLength ? '200 MiB, Content-Length' : '200 MiB, chunked',
        status: r.status,
        'ms to answer': (performance.now() - t0).toFixed(0),
        'MiB sent before the answer': (r.sentBeforeAnswer / MiB).toFixed(1),
        'bare: 20 MiB sent in ms': bareTwenty.ms.toFixed(0),
      });
    }
    console.log('\nRefusing a 200 MiB body (the limit is 20 MiB; the server stops reading at the limit)\n');
    table(refusals);
  } finally {
    await floor.stop();
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }

  // Extraction, in-process.
  const pages = Array.from({ length: 20 }, (_, i) => `Page ${i + 1}. ${'The quick brown fox jumps over the lazy dog. '.repeat(40)}`);
  const pdf = textPdf(pages);
  const parser = new PdfDocxDocumentParser();
  const adapter: number[] = [];
  const bareUnpdf: number[] = [];
  for (let i = 0; i < 12; i++) {
    let t0 = performance.now();
    const out = await parser.inspectPdf(pdf);
    if (out.status !== 'text') throw new Error(`expected text, got ${out.status}`);
    if (i >= 2) adapter.push((performance.now() - t0) / pages.length);
    t0 = performance.now();
    const doc = await getDocumentProxy(new Uint8Array(pdf));
    await extractText(doc, { mergePages: true });
    await doc.destroy();
    if (i >= 2) bareUnpdf.push((performance.now() - t0) / pages.length);
  }

  const images = new Map<string, Buffer>();
  const objects: ObjectStore = {
    put: async (k, b) => void images.set(k, Buffer.from(b)),
    get: async (k) => images.get(k),
    deletePrefix: async () => undefined,
  };
  const scanPages = 3;
  // A page of 30 lines of 40 characters, about what a scanned letter page holds.
  const scan = scannedPdf(
    Array.from({ length: 30 }, (_, i) => `LINE ${String(i + 1).padStart(2, '0')} THE QUICK BROWN FOX JUMPS OVER`),
    scanPages,
  );
  images.set('scan', Buffer.from(scan));
  const done: OcrCompletion[] = [];
  const ocr = new TesseractOcrEngine({ objects, bucket: 'bench', notify: async (c) => void done.push(c) });
  const ocrTimes: number[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const { jobId } = await ocr.start({ fileId: `f${i}`, storageKey: 'scan' });
      await waitFor(() => done.some((c) => c.JobId === jobId), 120_000);
      if (i > 0) ocrTimes.push((performance.now() - t0) / scanPages);
    }
  } finally {
    await ocr.close();
  }
  console.log('\nText extraction and OCR per page\n');
  table([
    {
      step: 'PDF text layer (parser adapter)',
      'ms / page (p50)': percentile(adapter, 50).toFixed(2),
      'bare unpdf ms / page': percentile(bareUnpdf, 50).toFixed(2),
      ratio: (percentile(adapter, 50) / percentile(bareUnpdf, 50)).toFixed(2),
    },
    {
      step: `OCR, tesseract.js (${scanPages} pages of 30 lines)`,
      'ms / page (p50)': percentile(ocrTimes, 50).toFixed(0),
      'bare unpdf ms / page': '-',
      ratio: '-',
    },
  ]);
}
