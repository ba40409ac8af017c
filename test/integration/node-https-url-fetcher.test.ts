/**
 * The Responses API's URL fetcher against a real HTTPS server on 127.0.0.1: pinned to the checked
 * addresses (the name resolves nowhere else), the test CA trusted only when the wiring passes it, one
 * deadline over the whole fetch, the size limit applied to the declared length and to the bytes as
 * they arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeHttpsUrlFetcher } from '../../functions/chat/adapters/node-https-url-fetcher';
import { png } from '../support/file-fixtures';
import { FileServer } from '../support/file-server';
import { RECEIVER_HOST, waitFor } from '../support/webhook-receiver';

describe('NodeHttpsUrlFetcher', () => {
  let files: FileServer;
  beforeAll(async () => {
    files = await FileServer.start();
    files.serve('/a.png', { body: png(2, 2), contentType: 'image/png' });
    files.serve('/slow', 'hang');
    files.serve('/endless', 'endless');
  });
  afterAll(() => files.stop());

  const target = (path: string) => ({ url: files.url(path), hostname: RECEIVER_HOST, addresses: ['127.0.0.1'] });
  const limits = { maxBytes: 1024 * 1024, timeoutMs: 2_000 };

  it('reads the body and its type from the pinned address, with SNI and certificate of the name', async () => {
    const got = await new NodeHttpsUrlFetcher({ trustedCaPem: files.caPem }).fetch(target('/a.png'), limits);
    expect(got).toEqual({ ok: true, bytes: Buffer.from(png(2, 2)), contentType: 'image/png' });
  });

  it('refuses a certificate of a CA the wiring did not pass', async () => {
    expect(await new NodeHttpsUrlFetcher().fetch(target('/a.png'), limits)).toEqual({
      ok: false,
      reason: 'the TLS connection failed (the certificate is not trusted or not for this host)',
    });
  });

  it('gives up at the deadline when the server does not answer', async () => {
    const started = Date.now();
    const got = await new NodeHttpsUrlFetcher({ trustedCaPem: files.caPem }).fetch(target('/slow'), { ...limits, timeoutMs: 300 });
    expect(got).toEqual({ ok: false, reason: 'no complete answer within 0.3 s' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('cuts a body off once it passes the limit', async () => {
    const got = await new NodeHttpsUrlFetcher({ trustedCaPem: files.caPem }).fetch(target('/endless'), limits);
    expect(got).toEqual({ ok: false, reason: `the body is over the ${limits.maxBytes} bytes allowed` });
    await waitFor(() => files.sent.get('/endless')?.closedEarly === true, 5_000, 'the server to see the connection closed');
    expect(files.sent.get('/endless')!.bytes).toBeLessThan(limits.maxBytes + 8 * 1024 * 1024);
  });

  it('refuses a declared length over the limit before reading', async () => {
    const got = await new NodeHttpsUrlFetcher({ trustedCaPem: files.caPem }).fetch(target('/a.png'), { ...limits, maxBytes: 10 });
    expect(got).toEqual({ ok: false, reason: 'the body is over the 10 bytes allowed' });
  });
});
