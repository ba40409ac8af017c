/**
 * Hostile JSON bodies, from each operation's body schema: every place of a valid base body given every
 * other JSON type, removed, or given edge values; prototype-named extra keys; deep nesting; huge strings
 * and objects; invalid JSON and invalid UTF-8; empty and non-object bodies; and bodies over the
 * router's 10 MB limit with every framing (the answer must be a 413 the client receives).
 */
import fc from 'fast-check';
import { render, type Base } from './base-request';
import { PROTO_NAMES } from './gen-query-headers';
import type { HostileRequest } from './hostile-request';
import { EDGE_VALUES, getAt, jsonType, placesOf, setAt, wrongTypeValues, type Json, type JsonPath } from './json-schema-arb';

const MiB = 1024 * 1024;
const HOLE = '__FUZZ_HOLE__';

/** A binary string of the UTF-8 bytes of `s`. */
const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

/** The base body's JSON text (UTF-8 bytes) with `path` set to a placeholder, split around it. */
function around(json: Json, path: JsonPath): [string, string] {
  const text = utf8(JSON.stringify(setAt(json, path, HOLE)));
  const at = text.indexOf(`"${HOLE}"`);
  return [text.slice(0, at), text.slice(at + HOLE.length + 2)];
}

const INVALID_JSON = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":undefined}',
  '{"a":1}{"b":2}',
  '// c\n{}',
  '{"a":"\\uZZZZ"}',
  '{"a":01}',
  '{"a":1e999}',
  '[1,]',
  'nul',
  '"unterminated',
  '{"a":"\u0000"}',
  '{"a":"line\nbreak"}',
  '{"__proto__":',
  '\u00ef\u00bb\u00bf{}',
];
const INVALID_UTF8 = ['\u00ff', '\u00c0\u00af', '\u00ed\u00a0\u0080', '\u00f8\u0088\u0080\u0080\u0080', '\u00c3', '\u00e2\u0082', '\u00fe\u00ff'];
const NOT_OBJECTS = ['[]', '[{}]', '0', '-1', '"string"', 'null', 'true', '1e309', '""', ' '];

/** Bodies over the router's 10 MB limit, framed every way a client may send them. */
export function oversizeArb(base: Base, head: string, tail: string, sizes: readonly number[], expect: readonly number[]): fc.Arbitrary<HostileRequest> {
  return fc.tuple(fc.constantFrom(...sizes), fc.constantFrom('chunked', 'length'), fc.boolean()).map(([size, framing, keepAlive]) =>
    render(base, {
      cls: 'body',
      variant: `body over the limit (${framing === 'chunked' ? 'chunked, no Content-Length' : 'Content-Length'}, ${keepAlive ? 'keep-alive' : 'Connection: close'})`,
      body: { head, fill: 'a', tail, size },
      framing: framing as 'chunked' | 'length',
      keepAlive,
      expect,
    }),
  );
}

export function jsonBodyArbFor(base: Base): fc.Arbitrary<HostileRequest> {
  const json = base.body!.json!;
  const schema = base.op.body!.schema;
  const places = placesOf(json, schema);
  const objects: JsonPath[] = [[], ...places.filter((p) => jsonType(getAt(json, p)) === 'object')];
  const withBytes = (variant: string, bytes: string) => render(base, { cls: 'body', variant, body: { bytes } });
  const withJson = (variant: string, value: Json) => withBytes(variant, utf8(JSON.stringify(value)));
  const anyPlace = fc.constantFrom<JsonPath>([], ...places);
  const arbs: fc.Arbitrary<HostileRequest>[] = [
    fc
      .tuple(
        fc.constantFrom(...objects),
        fc.constantFrom(...PROTO_NAMES, 'unknown_field', ''),
        fc.constantFrom<Json>({ polluted: true }, { prototype: { polluted: true } }, 'x', null, 1),
      )
      .map(([at, key, value]) => withJson('extra property', setAt(json, [...at, key], value))),
    fc.tuple(anyPlace, fc.constantFrom(1000, 10_000, 100_000), fc.boolean()).map(([at, depth, arrays]) => {
      const deep = arrays ? '['.repeat(depth) + ']'.repeat(depth) : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const [before, after] = around(json, at);
      return withBytes(`nesting ${depth} deep`, before + deep + after);
    }),
    fc.tuple(anyPlace, fc.constantFrom(64 * 1024, MiB, 6 * MiB)).map(([at, n]) => {
      const [before, after] = around(json, at);
      return render(base, {
        cls: 'body',
        variant: `${n}-byte string`,
        body: { head: `${before}"`, fill: 'a', tail: `"${after}`, size: before.length + n + after.length + 2 },
      });
    }),
    fc.constantFrom(1000, 50_000).map((n) => {
      const keys = Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',');
      const inner = JSON.stringify(json).slice(1, -1);
      return withBytes(`${n} keys`, utf8(`{${[keys, inner].filter(Boolean).join(',')}}`));
    }),
    fc.constantFrom(...INVALID_JSON).map((t) => withBytes('invalid JSON', utf8(t))),
    fc.nat().map((n) => {
      const text = utf8(JSON.stringify(json));
      return withBytes('truncated JSON', text.slice(0, n % Math.max(1, text.length)));
    }),
    fc.tuple(anyPlace, fc.constantFrom(...INVALID_UTF8)).map(([at, bad]) => {
      const [before, after] = around(json, at);
      return withBytes('invalid UTF-8 in a string', `${before}"a${bad}b"${after}`);
    }),
    fc.constantFrom(...NOT_OBJECTS).map((t) => withBytes('not an object', t)),
    fc.constant(withJson('the body wrapped in an array', [json])),
    fc.constant(withBytes('empty body', '')),
    fc.constant(render(base, { cls: 'body', variant: 'no body', body: null })),
    fc.constant(
      render(base, { cls: 'body', variant: 'no body, with a Content-Type', body: null, headers: [...base.headers, ['Content-Type', base.body!.contentType]] }),
    ),
  ];
  if (places.length) {
    const place = fc.constantFrom(...places);
    arbs.push(
      place.chain((p) => fc.constantFrom(...wrongTypeValues(getAt(json, p))).map((v) => withJson('wrong JSON type', setAt(json, p, v)))),
      fc.tuple(place, fc.constantFrom(...EDGE_VALUES)).map(([p, v]) => withJson('edge value', setAt(json, p, v))),
      place.map((p) => withJson('property removed', setAt(json, p, undefined))),
    );
  }
  // Bodies of megabytes are a small share: each costs as much as a hundred small requests.
  return fc.oneof(...arbs.map((arbitrary) => ({ weight: 3, arbitrary })), {
    weight: 1,
    arbitrary: oversizeArb(base, '{"a":"', '"}', [10 * MiB + 1, 12 * MiB], [413]),
  });
}

/** A body on an operation that takes none: it must be ignored or refused, never trusted. */
export function unexpectedBodyArbFor(base: Base): fc.Arbitrary<HostileRequest> {
  return fc.oneof(
    {
      weight: 9,
      arbitrary: fc
        .constantFrom('{"a":1}', '{"__proto__":{"polluted":true}}', '\u00ff\u00fe', 'x'.repeat(64 * 1024))
        .map((bytes) => render(base, { cls: 'body', variant: 'body on an operation without one', body: { bytes }, contentType: 'application/json' })),
    },
    { weight: 1, arbitrary: oversizeArb(base, '{"a":"', '"}', [10 * MiB + 1], [413]) },
  );
}
