/**
 * Hostile multipart bodies for the upload: bodies that end before the closing boundary (complete
 * requests, and clients that give up mid-body), a missing or wrong boundary, many parts, wrong part
 * names and file names, content that is not what its name says, and bodies over the upload limit.
 */
import fc from 'fast-check';
import { BOUNDARY, headersWithType, MULTIPART_END, multipartFile, PNG, render, type Base } from './base-request';
import { oversizeArb } from './gen-json-bodies';
import type { HostileRequest } from './hostile-request';

const MiB = 1024 * 1024;
const PNG_SIGNATURE = PNG.slice(0, 8);

/** Where a body may stop short of its closing boundary. */
function truncations(): fc.Arbitrary<{ bytes: string; where: string }> {
  const part = multipartFile(PNG);
  const headerEnd = part.indexOf('\r\n\r\n') + 4;
  return fc.oneof(
    fc.nat(40).map((n) => ({ bytes: part.slice(0, headerEnd) + PNG_SIGNATURE + PNG.slice(8, 8 + n), where: 'in the file content' })),
    fc.nat(headerEnd - 1).map((n) => ({ bytes: part.slice(0, n), where: 'in the part headers' })),
    fc.nat(MULTIPART_END.length - 1).map((n) => ({ bytes: part + MULTIPART_END.slice(0, n), where: 'in the closing boundary' })),
  );
}

export function multipartArbFor(base: Base): fc.Arbitrary<HostileRequest> {
  const headers = headersWithType(base);
  const body = (variant: string, bytes: string, contentType?: string) =>
    render(base, { cls: 'body', variant, body: { bytes }, ...(contentType !== undefined ? { contentType } : {}) });
  const file = (content: string, name?: string, field?: string, type?: string) => multipartFile(content, name, field, type) + MULTIPART_END;
  const arbs = [
    truncations().map(({ bytes, where }) => body(`ends before the closing boundary (${where})`, bytes)),
    // The client promised more and hung up: no answer is owed, but the process must live on.
    fc.tuple(truncations(), fc.boolean()).map(([{ bytes, where }, chunked]) =>
      render(base, {
        cls: 'body',
        variant: `client gives up ${where}${chunked ? ' (chunked)' : ''}`,
        headers: [...headers, ['Connection', 'close'], chunked ? ['Transfer-Encoding', 'chunked'] : ['Content-Length', String(bytes.length + 1000)]],
        body: { bytes: chunked ? `${bytes.length.toString(16)}\r\n${bytes}\r\n` : bytes },
        framing: 'asWritten',
        abandon: true,
      }),
    ),
    fc
      .constantFrom(
        'multipart/form-data',
        'multipart/form-data; boundary=other',
        'multipart/form-data; boundary=',
        `multipart/form-data; boundary="${BOUNDARY}`,
        `multipart/form-data; boundary=${'b'.repeat(200)}`,
        `multipart/mixed; boundary=${BOUNDARY}`,
      )
      .map((t) => body('missing or wrong boundary', base.body!.bytes, t)),
    fc.constantFrom(100, 1000, 5000).map((n) => {
      const fields = Array.from({ length: n }, (_, i) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`).join('');
      return body(`${n} parts`, fields + file(PNG));
    }),
    fc.constantFrom(2, 50).map((n) => body(`${n} file parts`, Array.from({ length: n }, () => multipartFile(PNG)).join('') + MULTIPART_END)),
    fc.constantFrom('files', '', '__proto__', 'constructor', 'FILE', 'file[]').map((field) => body('wrong part name', file(PNG, 'pixel.png', field))),
    fc
      .constantFrom(
        '../../etc/passwd.png',
        '',
        `${'a'.repeat(5000)}.png`,
        '\u00c3\u00a9.png',
        'x.png\u0000.exe',
        'pixel',
        '.png',
        'x.PNG',
        'x.png.exe',
        '"q".png',
        'C:\\x\\y.png',
      )
      .map((name) => body('odd file name', file(PNG, name))),
    fc
      .tuple(
        fc.constantFrom('', 'GIF89a\u0001\u0000', '%PDF-1.4\n%garbage', `${PNG_SIGNATURE}\u0000\u0000garbage`, 'PK\u0003\u0004garbage', '\u00ff\u00d8\u00ff'),
        fc.constantFrom('x.png', 'x.jpg', 'x.pdf', 'x.docx'),
      )
      .map(([content, name]) => body('content unlike its name', file(content, name))),
    fc.constant(body('part without headers', `--${BOUNDARY}\r\n\r\n${PNG}\r\n${MULTIPART_END}`)),
    fc.constantFrom(64 * 1024, MiB).map((n) => body('long preamble', `${'p'.repeat(n)}\r\n${file(PNG)}`)),
    fc.constant(body('not multipart at all', '\u00ff\u00fe{"file":"x"}')),
  ];
  // A body past the upload limit is a small share: each costs as much as a few hundred small requests.
  // The spec's upload table answers a file over 20 MB with a 400, the router's body limit with a 413;
  // either way the client must receive it.
  const oversize = oversizeArb(base, multipartFile(PNG_SIGNATURE).slice(0, -2), `\r\n${MULTIPART_END}`, [21 * MiB], [400, 413, 429]);
  return fc.oneof(...arbs.map((arbitrary) => ({ weight: 4, arbitrary })), { weight: 1, arbitrary: oversize });
}
