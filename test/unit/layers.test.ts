/**
 * The dependency rule of STYLE.md and docs/design.md §2, checked over the source text: nothing imports
 * upward, the domain stays pure, and the CDK app only reaches into functions/ through the files synth
 * may load. Imports are read with regular expressions after comments are stripped, so the check needs
 * no compiler API (TypeScript 7 ships none).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface SourceFile {
  /** Repository-relative, with forward slashes. */
  readonly path: string;
  readonly text: string;
}

interface ImportRef {
  readonly from: string;
  readonly line: number;
  readonly specifier: string;
  /** Repository-relative file (or directory, for a template-literal dynamic import), or the package name. */
  readonly target: string;
  readonly local: boolean;
  /** `import type` / `export type`: erased entirely. `import { type X }` is NOT type-only (verbatimModuleSyntax keeps it). */
  readonly typeOnly: boolean;
}

/** Replaces comments with spaces (keeping line numbers); strings, template literals and regex literals are kept. */
function stripComments(src: string): string {
  let out = '';
  let i = 0;
  let lastSignificant = '';
  const regexMayStart = () => lastSignificant === '' || '(,=:[!&|?{};+-*%<>~^'.includes(lastSignificant) || /\b(return|typeof|case|in|of)$/.test(out.trimEnd());
  while (i < src.length) {
    const c = src[i]!;
    const next = src[i + 1];
    if (c === '/' && next === '/') {
      while (i < src.length && src[i] !== '\n') {
        out += ' ';
        i++;
      }
      continue;
    }
    if (c === '/' && next === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end === -1 ? src.length : end + 2;
      out += src.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      continue;
    }
    if (c === "'" || c === '"' || c === '`' || (c === '/' && regexMayStart())) {
      let j = i + 1;
      let inClass = false;
      while (j < src.length) {
        const d = src[j]!;
        if (d === '\\') {
          j += 2;
          continue;
        }
        if (c === '/' && d === '[') inClass = true;
        else if (c === '/' && d === ']') inClass = false;
        else if (d === c && !(c === '/' && inClass)) break;
        else if (d === '\n' && c !== '`') break;
        j++;
      }
      out += src.slice(i, j + 1);
      i = j + 1;
      lastSignificant = c === '/' ? 'x' : c;
      continue;
    }
    out += c;
    if (!/\s/.test(c)) lastSignificant = c;
    i++;
  }
  return out;
}

// Statements start a line or follow `;` or `}`: an `import … from` inside a string does not count.
const STATIC = /(?:^|[;\n}])[ \t]*(import|export)\s+(type\s+)?([\w*${}\s,]*?)\s*from\s*(['"])([^'"\n]+)\4/g;
const SIDE_EFFECT = /(?:^|[;\n])\s*import\s*(['"])([^'"\n]+)\1/g;
const DYNAMIC = /\bimport\s*\(\s*(?:'([^'\n]*)'|"([^"\n]*)"|`([^`$]*))/g;

function resolveTarget(from: string, specifier: string, exists: (p: string) => boolean, dynamicPrefix: boolean): { target: string; local: boolean } {
  if (!specifier.startsWith('.')) {
    const parts = specifier.split('/');
    return { target: specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!, local: false };
  }
  const joined = join(dirname(from), specifier).split(sep).join('/');
  if (dynamicPrefix) return { target: joined.endsWith('/') ? joined : `${joined}`, local: true };
  const base = joined.replace(/\.js$/, '');
  for (const candidate of [joined, `${base}.ts`, `${base}.d.ts`, `${base}/index.ts`]) if (exists(candidate)) return { target: candidate, local: true };
  return { target: joined, local: true };
}

function importsOf(file: SourceFile, exists: (p: string) => boolean): ImportRef[] {
  const src = stripComments(file.text);
  const lineOf = (index: number) => src.slice(0, index).split('\n').length;
  const refs: ImportRef[] = [];
  for (const m of src.matchAll(STATIC)) {
    const specifier = m[5]!;
    refs.push({
      from: file.path,
      line: lineOf(m.index + m[0].indexOf(m[1]!)),
      specifier,
      typeOnly: Boolean(m[2]),
      ...resolveTarget(file.path, specifier, exists, false),
    });
  }
  for (const m of src.matchAll(SIDE_EFFECT)) {
    const specifier = m[2]!;
    refs.push({
      from: file.path,
      line: lineOf(m.index + m[0].indexOf('import')),
      specifier,
      typeOnly: false,
      ...resolveTarget(file.path, specifier, exists, false),
    });
  }
  for (const m of src.matchAll(DYNAMIC)) {
    const template = m[3];
    const specifier = m[1] ?? m[2] ?? template ?? '';
    const prefix = template !== undefined;
    // A template literal resolves to its static directory prefix; that is enough to place it in a layer.
    const spec = prefix ? specifier.slice(0, specifier.lastIndexOf('/') + 1) || specifier : specifier;
    refs.push({ from: file.path, line: lineOf(m.index), specifier, typeOnly: false, ...resolveTarget(file.path, spec, exists, prefix) });
  }
  return refs;
}

const under = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);
const isBuiltin = (r: ImportRef) => !r.local && r.specifier.startsWith('node:');
/** Folders of Lambda entry points: thin, composed by the wiring, never by each other. */
const ENTRY_LAYERS = ['functions/http', 'functions/queue', 'functions/jobs', 'functions/authorizers'];
const SYNTH_SAFE = ['functions/routes.ts', 'functions/workers.ts', 'functions/table-design.ts', 'functions/env.ts', 'functions/gateway.ts'];
/** The API reference, generated at synth into the front door's bucket: zod, node: builtins, the route table and its own folder. */
const REFERENCE = 'functions/openapi';
/**
 * Packages the domain may use: pure computation with no I/O, no globals and no dependencies of their
 * own (address ranges for the SSRF rules, markdown rendering for the feed). Anything else stays out.
 */
const DOMAIN_PURE_PACKAGES = ['ipaddr.js', 'marked'];

/** Every broken rule, one readable line each. */
function layerViolations(files: readonly SourceFile[], exists: (p: string) => boolean): string[] {
  const out: string[] = [];
  const byPath = new Map(files.map((f) => [f.path, f]));
  /**
   * A leaf domain module imports nothing at run time (type imports only), so synth can load it without
   * pulling handler code: the error shapes, auth messages and rate limits the gateway shares.
   */
  const isLeaf = (r: ImportRef): boolean => {
    if (!r.local || !under(r.target, 'functions/domain')) return false;
    const target = byPath.get(r.target);
    return target !== undefined && importsOf(target, exists).every((i) => i.typeOnly);
  };
  const report = (r: ImportRef, rule: string) =>
    out.push(`${r.from}:${r.line} ${r.typeOnly ? 'import type' : 'imports'} '${r.specifier}'${r.local ? ` (${r.target})` : ''}: ${rule}`);
  for (const file of files) {
    for (const r of importsOf(file, exists)) {
      const p = file.path;
      if (under(p, 'functions/domain')) {
        const ok = isBuiltin(r) || (r.local && under(r.target, 'functions/domain')) || (!r.local && DOMAIN_PURE_PACKAGES.includes(r.target));
        if (!ok) report(r, `functions/domain may import only functions/domain, node: builtins and ${DOMAIN_PURE_PACKAGES.join(', ')}`);
      } else if (under(p, 'functions/app')) {
        const ok =
          r.local &&
          (under(r.target, 'functions/domain') ||
            under(r.target, 'functions/app') ||
            under(r.target, 'functions/ports') ||
            (r.typeOnly && SYNTH_SAFE.includes(r.target)));
        if (!ok) report(r, 'functions/app may import only functions/domain, functions/app, functions/ports and types of the route and worker tables');
      } else if (under(p, 'functions/adapters')) {
        const banned = ['functions/http', 'functions/queue', 'functions/jobs', 'functions/local', 'functions/app', 'functions/wiring.ts'];
        if (r.local && banned.some((b) => under(r.target, b))) report(r, 'functions/adapters must not import http, queue, jobs, local, wiring or app');
      } else if (under(p, 'functions/ports')) {
        const ok = isBuiltin(r) || (r.local ? under(r.target, 'functions/domain') || under(r.target, 'functions/ports') : r.typeOnly);
        if (!ok) report(r, 'functions/ports may import only functions/domain, functions/ports and package types');
      } else if (under(p, 'functions/wiring')) {
        const banned = ENTRY_LAYERS.concat(['functions/local', 'functions/cli', 'functions/app']);
        if (r.local && banned.some((b) => under(r.target, b)))
          report(r, 'functions/wiring composes adapters: it must not import entry points, use cases, local or cli');
      } else if (ENTRY_LAYERS.some((l) => under(p, l))) {
        const own = ENTRY_LAYERS.find((l) => under(p, l))!;
        const allowed = ['functions/app', 'functions/domain', 'functions/ports', 'functions/wiring', own, ...SYNTH_SAFE];
        if (r.local && !allowed.some((a) => under(r.target, a)))
          report(
            r,
            `${own} may import only app, domain, ports, wiring, its own folder and the synth-safe tables (never adapters, local, cli or another entry layer)`,
          );
      } else if (under(p, REFERENCE)) {
        const ok = isBuiltin(r) || r.specifier === 'zod' || (r.local && (under(r.target, REFERENCE) || SYNTH_SAFE.includes(r.target)));
        if (!ok) report(r, `${REFERENCE} is loaded by synth: zod, node: builtins, the synth-safe tables and its own folder only`);
      } else if (SYNTH_SAFE.includes(p)) {
        const allowed = (p === 'functions/env.ts' && r.specifier === 'zod') || isLeaf(r);
        if (!r.typeOnly && !allowed)
          report(r, `${p} is loaded by synth: type imports and leaf domain modules only${p === 'functions/env.ts' ? ' (and zod)' : ''}`);
      } else if (under(p, 'lib') || under(p, 'bin')) {
        if (r.local && under(r.target, 'functions')) {
          const ok = SYNTH_SAFE.includes(r.target) || under(r.target, REFERENCE) || (r.typeOnly && under(r.target, 'functions/domain')) || isLeaf(r);
          if (!ok) report(r, `lib/ and bin/ may import from functions/ only ${SYNTH_SAFE.join(', ')}, leaf domain modules and domain types`);
        }
      }
    }
  }
  return out;
}

function walk(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(join(ROOT, dir));
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(join(ROOT, rel)).isDirectory()) return walk(rel);
    return name.endsWith('.ts') ? [rel] : [];
  });
}

const existsInRepo = (p: string) => {
  try {
    return statSync(join(ROOT, p)).isFile();
  } catch {
    return false;
  }
};

describe('layer rules', () => {
  const files: SourceFile[] = ['functions', 'lib', 'bin'].flatMap(walk).map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

  it('finds the source tree and reads its imports', () => {
    const paths = files.map((f) => f.path);
    expect(paths).toContain('functions/domain/time.ts');
    expect(paths).toContain('functions/wiring/platform-wiring.ts');
    const wiring = importsOf(files.find((f) => f.path === 'functions/wiring/conversation-wiring.ts')!, existsInRepo);
    expect(wiring.map((r) => r.target)).toContain('functions/adapters/dynamo-session-store.ts');
    // Every local import of the tree resolves to a file that exists (template-literal directories aside).
    const unresolved = files.flatMap((f) => importsOf(f, existsInRepo)).filter((r) => r.local && !r.target.endsWith('/') && !existsInRepo(r.target));
    expect(unresolved.map((r) => `${r.from}:${r.line} '${r.specifier}'`)).toEqual([]);
  });

  it('holds for every .ts file under functions/, lib/ and bin/', () => {
    const violations = layerViolations(files, existsInRepo);
    expect(violations, `layer violations:\n  ${violations.join('\n  ')}`).toEqual([]);
  });
});

describe('the layer check itself', () => {
  const exists = (p: string) =>
    [
      'functions/domain/a.ts',
      'functions/domain/b.ts',
      'functions/ports/platform.ts',
      'functions/adapters/x.ts',
      'functions/app/u.ts',
      'functions/routes.ts',
      'functions/wiring.ts',
      'functions/http/kit.ts',
    ].includes(p);
  const check = (path: string, text: string) => layerViolations([{ path, text }], exists);

  it('flags the domain importing the AWS SDK, zod, an adapter or a Lambda type', () => {
    expect(check('functions/domain/a.ts', "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';")).toHaveLength(1);
    expect(check('functions/domain/a.ts', "import * as z from 'zod';")).toHaveLength(1);
    expect(check('functions/domain/a.ts', "import type { Context } from 'aws-lambda';")).toHaveLength(1);
    expect(check('functions/domain/a.ts', "import middy from '@middy/core'")).toHaveLength(1);
    expect(check('functions/domain/a.ts', "import {\n  X,\n  type Y,\n} from '../adapters/x';")).toEqual([
      "functions/domain/a.ts:1 imports '../adapters/x' (functions/adapters/x.ts): functions/domain may import only functions/domain, node: builtins and ipaddr.js, marked",
    ]);
    expect(check('functions/domain/a.ts', "const m = await import('../adapters/x');")).toHaveLength(1);
    expect(check('functions/domain/a.ts', "export { b } from '../ports/platform';")).toHaveLength(1);
  });

  it('lets the domain import the domain, node: builtins and the listed pure packages', () => {
    expect(check('functions/domain/a.ts', "import { createHash } from 'node:crypto';\nimport { b } from './b';\nexport * from './b';")).toEqual([]);
    expect(check('functions/domain/a.ts', "import ipaddr from 'ipaddr.js';\nimport { Marked } from 'marked';")).toEqual([]);
    expect(check('functions/domain/a.ts', "import busboy from 'busboy';")).toHaveLength(1);
  });

  it('ignores imports inside comments and strings', () => {
    expect(check('functions/domain/a.ts', "// import x from '../adapters/x'\n/* export * from 'zod' */\nconst s = \"import y from 'zod'\";")).toEqual([]);
  });

  it('flags use cases reaching adapters, wiring or the http kit, and allows domain, app and ports', () => {
    expect(check('functions/app/u.ts', "import { DynamoAppStore } from '../adapters/x';")).toHaveLength(1);
    expect(check('functions/app/u.ts', "import { buildDeps } from '../wiring';")).toHaveLength(1);
    expect(check('functions/app/u.ts', "import type { HttpDeps } from '../http/kit';")).toHaveLength(1);
    expect(check('functions/app/u.ts', "import type { Deps } from '../ports/deps';\nimport { a } from '../domain/a';\nimport { u } from './u';")).toEqual([]);
  });

  it('flags adapters importing use cases or entry points', () => {
    expect(check('functions/adapters/x.ts', "import { createApp } from '../app/u';")).toHaveLength(1);
    expect(check('functions/adapters/x.ts', "import type { HttpDeps } from '../http/kit';")).toHaveLength(1);
    expect(check('functions/adapters/x.ts', "import { GetCommand } from '@aws-sdk/lib-dynamodb';\nimport type { AppStore } from '../ports/platform';")).toEqual(
      [],
    );
  });

  it('flags a runtime import in the route table and keeps type imports', () => {
    expect(check('functions/routes.ts', "import { ORG_SCOPES } from './domain/a';")).toHaveLength(1);
    expect(check('functions/routes.ts', "import { type OrgScope } from './domain/a';")).toHaveLength(1);
    expect(check('functions/routes.ts', "import type { OrgScope } from './domain/a';")).toEqual([]);
    expect(check('functions/env.ts', "import * as z from 'zod';")).toEqual([]);
  });

  it('keeps entry points off adapters, local and each other, and the wiring off entry points', () => {
    expect(check('functions/http/kit.ts', "import { DynamoAppStore } from '../adapters/x';")).toHaveLength(1);
    expect(check('functions/http/kit.ts', "import type { CoreDeps } from '../wiring/core-wiring';\nimport { u } from '../app/u';")).toEqual([]);
    expect(check('functions/queue/w.ts', "import type { HttpDeps } from '../http/kit';")).toHaveLength(1);
    expect(check('functions/jobs/j.ts', "import { x } from '../local/platform';")).toHaveLength(1);
    expect(check('functions/wiring/w.ts', "import type { HttpDeps } from '../http/kit';")).toHaveLength(1);
    expect(check('functions/wiring/w.ts', "import { DynamoAppStore } from '../adapters/x';\nimport type { AppStore } from '../ports/platform';")).toEqual([]);
    expect(check('functions/ports/platform.ts', "import { DynamoAppStore } from '../adapters/x';")).toHaveLength(1);
    expect(check('functions/ports/platform.ts', "import type { Logger } from '@aws-lambda-powertools/logger';")).toEqual([]);
    expect(check('functions/ports/platform.ts', "import { Logger } from '@aws-lambda-powertools/logger';")).toHaveLength(1);
  });

  it('flags lib/ importing handler code, and allows the synth-safe files and domain types', () => {
    expect(check('lib/api-stack.ts', "import { buildDeps } from '../functions/wiring';")).toHaveLength(1);
    expect(check('lib/api-stack.ts', "import { a } from '../functions/domain/a';")).toHaveLength(1);
    expect(check('lib/api-stack.ts', "import { ROUTES } from '../functions/routes';\nimport type { A } from '../functions/domain/a';")).toEqual([]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text under test holds a template literal.
    expect(check('bin/app.ts', 'const k = await import(`../functions/http/${name}.handler.ts`);')).toHaveLength(1);
  });

  it('lets lib/ and synth-safe files load leaf domain modules, and no domain module that imports at run time', () => {
    const files: SourceFile[] = [
      { path: 'functions/domain/a.ts', text: "import type { X } from './b';\nexport const A = 1;" },
      { path: 'functions/domain/b.ts', text: "import { createHash } from 'node:crypto';\nexport const B = 2;" },
    ];
    const run = (path: string, text: string) => layerViolations([...files, { path, text }], (p) => files.some((f) => f.path === p) || exists(p));
    expect(run('lib/x.ts', "import { A } from '../functions/domain/a';")).toEqual([]);
    expect(run('functions/routes.ts', "import { B } from './domain/b';")).toHaveLength(1);
    expect(run('functions/gateway.ts', "import { A } from './domain/a';")).toEqual([]);
    expect(run('lib/x.ts', "import { B } from '../functions/domain/b';")).toHaveLength(1);
    expect(run('functions/gateway.ts', "import { B } from './domain/b';")).toHaveLength(1);
  });
});
