/**
 * Hostile query strings and headers: prototype-named and odd parameter names, duplicates, values of
 * the wrong type for each documented parameter's schema, percent garbage; prototype-named, duplicated,
 * oversized and malformed headers, request smuggling framing, wrong Content-Types and wrong
 * Authorization schemes or keys of another class (console routes: gen-console-auth.ts).
 */
import fc from 'fast-check';
import { credentialsOf, headersWithType, render, replaceHeader, type Base, type FuzzContext, type Pairs } from './base-request';
import { consoleHeaders } from './console-tenant';
import { consoleAuthArb } from './gen-console-auth';
import type { HostileRequest } from './hostile-request';
import type { JsonSchema } from './openapi-model';

export const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__', 'isPrototypeOf'];
const ODD_NAMES = ['', '[]', 'a[]', 'a[b]', '__proto__[x]', 'constructor[prototype][x]', 'a.b', '%zz', '%00', '\u00c3\u00a9', '%C3%A9', '%20', '+', '=', '&'];
const PERCENT_GARBAGE = ['%', '%zz', '%00', '%C0%AF', '%E2%82', '%%', '%2', '\u00c3\u00a9', '\u00ff', '%FF%FE'];

/** Values a parameter of `schema` must refuse (or, for free strings, must survive). */
function wrongValues(schema: JsonSchema): string[] {
  if (schema.type === 'integer')
    return ['1.5', 'abc', '-1', '0', '1e3', '99999999999999999999', '0x10', '%201', '', '%EF%BC%91', 'NaN', 'Infinity', '-0', '00001', '1%00', '[]'];
  if (schema.format === 'date-time')
    return [
      'yesterday',
      '2026-13-45T00:00:00Z',
      '2026-01-01',
      '',
      '0',
      '2026-01-01T00:00:00',
      '%2B275760-09-13T00:00:00.000Z',
      'Z',
      '2026-02-30T00:00:00Z',
      '9999999999999',
      'null',
    ];
  if (schema.format === 'uuid')
    return [
      'not-a-uuid',
      '00000000-0000-0000-0000-00000000000g',
      '',
      'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ',
      '%7B00000000-0000-4000-8000-000000000000%7D',
      '0',
    ];
  if ('const' in schema) return [`${String(schema.const)},${String(schema.const)}`, String(schema.const).toUpperCase(), 'x', ''];
  return ['', 'x'.repeat(5000), 'null', '%0D%0AX-Injected:%201'];
}

export function queryArbFor(base: Base): fc.Arbitrary<HostileRequest> {
  const documented = base.op.query;
  const q = (variant: string, query: Base['query']) => render(base, { cls: 'query', variant, query });
  const arbs: { weight: number; arbitrary: fc.Arbitrary<HostileRequest> }[] = [
    fc
      .tuple(fc.constantFrom(...PROTO_NAMES), fc.constantFrom<string | null>('1', 'x', '', null, '%7B%7D'))
      .map(([name, value]) => q('prototype-named parameter', [...base.query, [name, value]])),
    fc.tuple(fc.constantFrom(...ODD_NAMES), fc.constantFrom('x', '1', '')).map(([name, value]) => q('odd parameter name', [...base.query, [name, value]])),
    fc.constantFrom(...PERCENT_GARBAGE).map((v) => q('percent garbage value', [...base.query, [documented[0]?.name ?? 'x', v]])),
    fc.constantFrom(100, 500, 1100).map((n) =>
      q(
        'many parameters',
        Array.from({ length: n }, (_, i) => [`p${i}`, '1'] as const),
      ),
    ),
    fc.constantFrom('created_after', 'LIMIT', 'limit ', 'x').map((name) => q('undocumented parameter', [...base.query, [name, '2026-01-01T00:00:00Z']])),
  ].map((arbitrary) => ({ weight: 1, arbitrary }));
  if (documented.length) {
    arbs.push(
      {
        weight: 5,
        arbitrary: fc
          .constantFrom(...documented)
          .chain((p) => fc.constantFrom(...wrongValues(p.schema), ...PERCENT_GARBAGE).map((v) => q(`wrong value for ${p.name}`, [[p.name, v]]))),
      },
      {
        weight: 2,
        arbitrary: fc.tuple(fc.constantFrom(...documented), fc.boolean()).chain(([p, first]) =>
          fc.constantFrom(...wrongValues(p.schema)).map((bad) =>
            q(
              'duplicate parameter',
              first
                ? [
                    [p.name, bad],
                    [p.name, '1'],
                  ]
                : [
                    [p.name, '1'],
                    [p.name, bad],
                  ],
            ),
          ),
        ),
      },
    );
  }
  return fc.oneof(...arbs);
}

function authArb(ctx: FuzzContext, base: Base): fc.Arbitrary<HostileRequest> {
  const cred = base.credential ?? 'svc_org_unknown';
  const others = credentialsOf(base.tenant, ctx).filter((c) => c !== base.credential);
  const values = [
    'Basic eDp5',
    'Bearer',
    'Bearer ',
    `Bearer ${'x'.repeat(10 * 1024)}`,
    `bearer ${cred}`,
    `BEARER ${cred}`,
    `Bearer  ${cred}`,
    cred,
    `Bearer ${cred}x`,
    `Bearer ${cred.slice(0, -1)}`,
    `Bearer ${cred} extra`,
    `Token ${cred}`,
    'Bearer \u00c3\u00a9',
    `Bearer acp_${'x'.repeat(32)}`,
    'Bearer svc_org_',
    ...others.map((o) => `Bearer ${o}`),
  ];
  return fc.oneof(
    fc
      .constantFrom(...values)
      .map((v) => render(base, { cls: 'header', variant: 'wrong Authorization', headers: replaceHeader(headersWithType(base), 'Authorization', v) })),
    fc.constant(render(base, { cls: 'header', variant: 'no Authorization', headers: replaceHeader(headersWithType(base), 'Authorization', undefined) })),
    fc.tuple(fc.constantFrom(`Bearer ${cred}`, 'Bearer garbage', '', ...others.slice(0, 2).map((o) => `Bearer ${o}`)), fc.boolean()).map(([second, before]) => {
      const headers = headersWithType(base);
      const extra = ['Authorization', second] as const;
      return render(base, { cls: 'header', variant: 'duplicate Authorization', headers: before ? [extra, ...headers] : [...headers, extra] });
    }),
    // The console's credential where a key is due: a key route never reads the cookie.
    fc.constant(
      render(base, {
        cls: 'header',
        variant: 'console session instead of the key',
        headers: [...replaceHeader(headersWithType(base), 'Authorization', undefined), ...consoleHeaders(base.tenant.console.sessionId)],
      }),
    ),
  );
}

const WRONG_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json;;;',
  '',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/json, text/plain',
  '*/*',
  '\u00ff',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=""',
  'multipart/mixed; boundary=x',
  'application/json',
];

function contentTypeArb(base: Base): fc.Arbitrary<HostileRequest> {
  return fc.oneof(
    fc.constantFrom(...WRONG_TYPES).map((t) => render(base, { cls: 'header', variant: 'wrong Content-Type', contentType: t })),
    fc.constant(render(base, { cls: 'header', variant: 'no Content-Type', contentType: null, body: base.body ? { bytes: base.body.bytes } : { bytes: '{}' } })),
    fc.tuple(fc.constantFrom('text/plain', 'application/json', 'multipart/form-data; boundary=x'), fc.boolean()).map(([second, before]) => {
      const headers = headersWithType(base);
      return render(base, {
        cls: 'header',
        variant: 'duplicate Content-Type',
        headers: before ? [['Content-Type', second], ...headers] : [...headers, ['Content-Type', second]],
      });
    }),
  );
}

/** Framing and bytes the HTTP parser must refuse with a 400 (request smuggling, control bytes, malformed lines). */
function malformedArb(base: Base): fc.Arbitrary<HostileRequest> {
  const headers = headersWithType(base);
  const body = base.body?.bytes ?? '{}';
  const chunkedBody = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  const smuggle = (variant: string, framing: Pairs) =>
    render(base, {
      cls: 'header',
      variant,
      headers: [...headers, ['Connection', 'close'], ...framing],
      body: { bytes: chunkedBody },
      framing: 'asWritten',
      expect: [400],
    });
  return fc.oneof(
    fc
      .constantFrom<Pairs>(
        [
          ['Transfer-Encoding', 'chunked'],
          ['Content-Length', String(chunkedBody.length)],
        ],
        [
          ['Content-Length', String(body.length)],
          ['Transfer-Encoding', 'chunked'],
        ],
        [
          ['Transfer-Encoding', 'chunked'],
          ['Content-Length', '0'],
        ],
      )
      .map((f) => smuggle('Transfer-Encoding with Content-Length', f)),
    fc
      .constantFrom<Pairs>(
        [['Content-Length', 'abc']],
        [['Content-Length', '-1']],
        [
          ['Content-Length', '5'],
          ['Content-Length', '6'],
        ],
        [['Content-Length', '1 2']],
      )
      .map((f) =>
        render(base, {
          cls: 'header',
          variant: 'malformed Content-Length',
          headers: [...headers, ['Connection', 'close'], ...f],
          body: { bytes: body },
          framing: 'asWritten',
          expect: [400],
        }),
      ),
    // NUL and a bare CR in a value, and any control byte in a name, must be refused (RFC 9110 5.5);
    // other control bytes in a value may be kept, so those only need a sound answer.
    fc
      .constantFrom('\u0000', '\r')
      .map((bad) => render(base, { cls: 'header', variant: 'NUL or CR in a header value', headers: [...headers, ['X-Fuzz', `a${bad}b`]], expect: [400] })),
    fc
      .constantFrom('\u0000', '\u0001', '\u007f', '\r', '\u001b')
      .map((bad) => render(base, { cls: 'header', variant: 'control byte in a header name', headers: [...headers, [`X-Fu${bad}zz`, '1']], expect: [400] })),
    fc
      .constantFrom('\u0001', '\u007f', '\u001b')
      .map((bad) => render(base, { cls: 'header', variant: 'control byte in a header value', headers: [...headers, ['X-Fuzz', `a${bad}b`]] })),
    fc
      .constantFrom<Pairs[number]>(['X-Fuzz ', '1'], ['X(Fuzz)', '1'], ['"X-Fuzz"', '1'], ['X-F\u00c3\u00a9', '1'], ['', 'empty name'], ['X-No-Colon', null])
      .map((line) => render(base, { cls: 'header', variant: 'malformed header line', headers: [...headers, line], expect: [400] })),
    fc.constant(render(base, { cls: 'header', variant: 'no Host', headers: headers.filter(([k]) => k !== 'Host'), expect: [400] })),
  );
}

export function headerArbFor(ctx: FuzzContext, base: Base): fc.Arbitrary<HostileRequest> {
  const headers = headersWithType(base);
  const arbs: fc.Arbitrary<HostileRequest>[] = [
    fc
      .tuple(fc.constantFrom(...PROTO_NAMES), fc.constantFrom('1', 'x', '{}'))
      .map(([name, v]) => render(base, { cls: 'header', variant: 'prototype-named header', headers: [...headers, [name, v]] })),
    fc
      .tuple(fc.constantFrom('X-Fuzz-Pad', 'Cookie', 'Authorization', 'User-Agent'), fc.constantFrom(9 * 1024, 17 * 1024, 20 * 1024, 64 * 1024))
      .map(([name, size]) =>
        render(base, { cls: 'header', variant: `${size}-byte header`, headers: [...headers.filter(([k]) => k !== name), [name, 'x'.repeat(size)]] }),
      ),
    fc
      .constantFrom('\u00c3\u00a9', '\u00ff\u00fe', 'caf\u00e9')
      .map((v) => render(base, { cls: 'header', variant: 'non-ASCII header value', headers: [...headers, ['X-Fuzz', v]] })),
    fc.constantFrom(50, 200).map((n) =>
      render(base, {
        cls: 'header',
        variant: 'many headers',
        headers: [...headers, ...Array.from({ length: n }, (_, i) => [`X-Fuzz-${i}`, String(i)] as const)],
      }),
    ),
    fc.constantFrom('100-continue', 'x-unknown').map((v) => render(base, { cls: 'header', variant: `Expect: ${v}`, headers: [...headers, ['Expect', v]] })),
    fc.constant(render(base, { cls: 'header', variant: 'duplicate Host', headers: [...headers, ['Host', 'evil.example']] })),
    // A header the document requires: left out it is a 400 (the credential is valid), and odd values of it.
    ...base.op.headers
      .filter((p) => p.required)
      .flatMap((p) => [
        fc.constant(render(base, { cls: 'header', variant: `no ${p.name}`, headers: replaceHeader(headers, p.name, undefined), expect: [400] })),
        fc
          .constantFrom('', 'x'.repeat(256), '__proto__', '2026-04-17, 2026-04-17', '1'.repeat(4096))
          .map((v) => render(base, { cls: 'header', variant: `odd ${p.name}`, headers: replaceHeader(headers, p.name, v) })),
      ]),
  ];
  const weighted = arbs.map((arbitrary) => ({ weight: 1, arbitrary }));
  return fc.oneof(
    ...weighted,
    ...(base.body ? [{ weight: 3, arbitrary: contentTypeArb(base) }] : []),
    { weight: 3, arbitrary: base.session ? consoleAuthArb(ctx, base) : authArb(ctx, base) },
    { weight: 3, arbitrary: malformedArb(base) },
  );
}
