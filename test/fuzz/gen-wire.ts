/**
 * Hostile methods and request targets, from each operation's path in the document: every standard
 * method, unknown and malformed method tokens, undecodable and traversing path parameters, paths the
 * URL parser chokes on, absolute-form and asterisk targets, and targets around the 8192-byte limit.
 */
import fc from 'fast-check';
import { render, type Base } from './base-request';
import type { HostileRequest } from './hostile-request';
import { operationsAt, type ApiModel } from './openapi-model';

const STANDARD = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT'];
const TCHAR = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".split('');
const token = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...TCHAR), minLength, maxLength });
/** Bytes no method token may hold (not space or tab: a parser may take them as the separator, and read another target). */
const NOT_TCHAR = ['@', '(', ')', '"', '/', ':', ',', '\u0000', '\u007f', '\u00c3\u00a9', '[', '{'];

type MethodKind = 'standard' | 'token' | 'invalid';

const methodArb: fc.Arbitrary<{ method: string; kind: MethodKind }> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...STANDARD).map((method) => ({ method, kind: 'standard' as const })) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom('FOO', 'get', 'Get', 'pOST', 'PROPFIND', 'MKCOL', 'PURGE', 'QUERY', 'SEARCH', 'M-SEARCH', 'BREW')
      .map((method) => ({ method, kind: 'token' as const })),
  },
  { weight: 1, arbitrary: token(100, 100).map((method) => ({ method, kind: 'token' as const })) },
  { weight: 1, arbitrary: token(1, 12).map((method) => ({ method, kind: 'token' as const })) },
  {
    weight: 2,
    arbitrary: fc.tuple(token(1, 8), fc.constantFrom(...NOT_TCHAR), token(0, 4)).map(([a, bad, b]) => ({ method: `${a}${bad}${b}`, kind: 'invalid' as const })),
  },
);

/** What the router contract demands for `method` on `path`; undefined where the operation's own statuses apply. */
function methodExpectation(model: ApiModel, path: string, method: string, kind: MethodKind): number[] | undefined {
  const methods = operationsAt(model, path).map((o) => o.method);
  if (methods.includes(method) || (method === 'HEAD' && methods.includes('GET'))) return undefined;
  if (kind === 'invalid') return methods.length ? [400, 405] : [400, 404];
  if (!methods.length) return kind === 'standard' && method !== 'CONNECT' ? [404] : [400, 404];
  // CONNECT with an origin-form target is malformed (RFC 9112 3.2.3); either answer is the router's.
  return method === 'CONNECT' ? [400, 405] : [405];
}

export function methodArbFor(model: ApiModel, base: Base): fc.Arbitrary<HostileRequest> {
  return fc.tuple(methodArb, fc.constantFrom('', '', '', '/nope')).map(([{ method, kind }, suffix]) => {
    const path = base.path + suffix;
    const expect = methodExpectation(model, path, method, kind);
    return render(base, {
      cls: 'method',
      variant: `${kind === 'standard' ? method : kind}${suffix ? ' on an unknown path' : ''}`,
      method,
      path,
      ...(expect ? { expect } : {}),
    });
  });
}

/** Path-parameter values percent-decoding cannot turn into a string. */
const UNDECODABLE = ['%zz', '%', '%C0%AF', '%E2%82', '%ff', 'a%2', '%%41'];
/** Values that decode, but to something no id looks like. */
const ODD_PARAMS = [
  '%00',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '%5C',
  '\\',
  '/\\',
  '',
  '\u00c3\u00a9',
  '%C3%A9',
  '%F0%9F%92%A9',
  ';x',
  '*',
  '~',
  '%20',
  "'",
  'null',
  '__proto__',
  'constructor',
];

function paramArb(base: Base): fc.Arbitrary<HostileRequest> {
  const op = base.op;
  const documented404or400 = op.responses.has(400) ? [404, 400] : [404];
  return fc
    .tuple(
      fc.constantFrom(...op.pathParams),
      fc.oneof(
        fc.constantFrom(...UNDECODABLE).map((v) => ({ v, variant: 'undecodable path parameter', expect: documented404or400 })),
        fc.constantFrom(...ODD_PARAMS).map((v) => ({ v, variant: 'odd path parameter', expect: undefined })),
        fc.constantFrom(10 * 1024, 2048).map((n) => ({ v: 'a'.repeat(n), variant: 'long path parameter', expect: undefined })),
      ),
    )
    .map(([name, { v, variant, expect: documented }]) => {
      const path = op.template.replace(/\{([^}]+)\}/g, (m, p: string) => (p === name ? v : base.path.split('/')[op.template.split('/').indexOf(m)]!));
      // An ACP key names its app: any other `{appId}`, an undecodable one too, is the spec's 403.
      const expect = documented && name === 'appId' && op.responses.has(403) ? [...documented, 403] : documented;
      return render(base, { cls: 'target', variant, path, ...(expect ? { expect } : {}) });
    });
}

/** Whole targets that are not paths a URL parser takes kindly, and the API reference's (which must never 5xx). */
const ODD_TARGETS = [
  '/docs',
  '/docs/',
  '/docs/%zz',
  '/docs/..%2f..%2fpackage.json',
  '/api/v1/openapi.json?%zz',
  '//',
  '/\\',
  '//:99999/x',
  '//[/x',
  '//%zz/x',
  '//%00/x',
  'http://evil/x',
  '*',
  '/%zz',
  '/..',
  '/../../etc/passwd',
  '\\',
  '/\\/x',
  '//evil.example/x',
  'http://evil:99999/x',
  'http://[::1/x',
  '/?%zz',
  '/%00',
  '/\u00c3\u00a9',
];

function pathShapeArb(base: Base): fc.Arbitrary<HostileRequest> {
  const path = base.path;
  const slashes = [...path.matchAll(/\//g)].map((m) => m.index);
  const prefix = base.op.template.split('{')[0]!;
  return fc.oneof(
    fc.constantFrom(...ODD_TARGETS).map((target) => render(base, { cls: 'target', variant: `odd target ${target}`, target })),
    fc
      .constantFrom('%zz', '//', '..%2f..%2f', '%00', '\\', '%2e%2e/', 'x'.repeat(300))
      .map((s) => render(base, { cls: 'target', variant: 'odd path under the area prefix', path: prefix + s })),
    fc
      .constantFrom('http://evil', 'http://evil:99999', 'https://user:pass@evil')
      .map((authority) => render(base, { cls: 'target', variant: 'absolute-form target', path: authority + path })),
    fc
      .tuple(fc.constantFrom(...slashes), fc.constantFrom('//', '/./', '/../', '/%2F', '/%2e/'))
      .map(([at, s]) => render(base, { cls: 'target', variant: 'dot or doubled segment', path: path.slice(0, at) + s + path.slice(at + 1) })),
    fc
      .constantFrom('/', '/nope', '%2F', ';jsessionid=1', '#frag', '.json', '/.')
      .map((s) => render(base, { cls: 'target', variant: 'path suffix', path: path + s })),
    fc.constant(render(base, { cls: 'target', variant: 'upper-case path', path: path.toUpperCase() })),
  );
}

/** Targets of exactly these lengths: the 8192-byte limit, both sides of it, and far past it. */
function longTargetArb(base: Base): fc.Arbitrary<HostileRequest> {
  return fc.tuple(fc.constantFrom(8192, 8193, 9 * 1024, 20 * 1024, 64 * 1024), fc.boolean()).map(([length, inQuery]) => {
    const start = inQuery ? `${base.path}?pad=` : `${base.path}/`;
    return render(base, {
      cls: 'target',
      variant: `${length}-byte target${inQuery ? ' (query)' : ' (path)'}`,
      target: start + 'x'.repeat(Math.max(0, length - start.length)),
    });
  });
}

export function targetArbFor(base: Base): fc.Arbitrary<HostileRequest> {
  const choices = [pathShapeArb(base), longTargetArb(base)];
  return base.op.pathParams.length ? fc.oneof(paramArb(base), ...choices) : fc.oneof(...choices);
}
