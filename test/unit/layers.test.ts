/**
 * The dependency rules of docs/design.md §2, checked over the source text. functions/ holds one folder
 * per area (a vertical slice: export, chat, acp, release-notes), `conversations/` for what chat and
 * export share, `tenancy/` for orgs, apps, keys and credits, `kernel/` for what every slice uses, and the
 * composition around them (`server/`, `local/`, `cli/`, `jobs/`, `openapi/`, the route and worker tables
 * `routes.ts` and `workers.ts`, joined on top).
 * Inside a slice the layers point inward (the domain stays pure, nothing imports upward) and no layer
 * folder holds a single file; the kernel imports no slice, tenancy only the kernel, conversations both,
 * an area those three; nothing in a slice imports the composition (a handler takes its route from its own area's table); no
 * import cycle spans two folders; and the CDK app reaches into
 * functions/ only through the files synth may load. Imports are read with regular expressions after
 * comments are stripped, so the check needs no compiler API (TypeScript 7 ships none).
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

/** The slices: one folder per area, plus the three shared ones below them, innermost first. */
const AREAS = ['export', 'chat', 'acp', 'release-notes', 'console'] as const;
const SHARED = ['kernel', 'tenancy', 'conversations'] as const;
const SLICES: readonly string[] = [...SHARED, ...AREAS];
/** What each slice may import besides itself: the kernel no slice, tenancy the kernel, conversations both, an area all three. */
const MAY_USE: Readonly<Record<string, readonly string[]>> = {
  kernel: [],
  tenancy: ['kernel'],
  conversations: ['kernel', 'tenancy'],
  ...Object.fromEntries(AREAS.map((a) => [a, ['kernel', 'tenancy', 'conversations']])),
};
/** The composition around the slices: it may import any slice; no slice imports it. */
const COMPOSITION = [
  'functions/server',
  'functions/local',
  'functions/cli',
  'functions/jobs',
  'functions/openapi',
  'functions/routes.ts',
  'functions/workers.ts',
];
/**
 * The layers a slice may hold, innermost first; an entry layer holds Lambda entry points (`workers/`:
 * queue consumers and scheduled jobs). A slice's ports live in `app/` beside the use cases that define
 * them; a `*-ports.ts` file there is of the `ports` layer.
 */
const LAYERS = ['domain', 'ports', 'app', 'adapters', 'wiring', 'http', 'workers', 'authorizers', 'openapi'] as const;
type Layer = (typeof LAYERS)[number];
const ENTRY_LAYERS: readonly Layer[] = ['http', 'workers', 'authorizers'];
/**
 * Files synth loads besides the slices' own tables: the joined tables, the route vocabulary, the
 * environment schema, the API gateway contract, the table design.
 */
const SYNTH_LOADED = [
  'functions/routes.ts',
  'functions/workers.ts',
  'functions/jobs/job-routes.ts',
  'functions/kernel/route-vocabulary.ts',
  'functions/openapi/openapi-routes.ts',
  'functions/kernel/env.ts',
  'functions/kernel/http/api-gateway-contract.ts',
  'functions/kernel/adapters/table-design.ts',
  // which paths under /console are the console's files: the front door's function is generated from it
  'functions/console/console-site-paths.ts',
];
/** bin/app.ts builds the console before synth, since the front door ships its files. */
const BUILT_BEFORE_SYNTH = 'functions/local/console-build.ts';
/** The API reference, generated at synth into the front door's bucket from each area's openapi/ fragment. */
const REFERENCE = 'functions/openapi';
/**
 * Packages the domain may use: pure computation with no I/O, no globals and no dependencies of their
 * own (address ranges for the SSRF rules, markdown rendering for the feed, JSON Schema checks of client
 * tools and structured answers). Anything else stays out.
 */
const DOMAIN_PURE_PACKAGES = ['ipaddr.js', 'marked', '@cfworker/json-schema'];

/** An operation's request schema (`<area>/openapi/<area>-requests.ts`): what its handlers parse with and the document lists. */
const isRequestSchema = (path: string) => placeOf(path)?.layer === 'openapi' && path.endsWith('-requests.ts');
/**
 * The request vocabulary request schemas are written in: the declaration kit (rules, parameters,
 * bodies; no zod at run time), the `zod/mini` body rule and the multipart body rule. Both are in the handlers' bundles anyway,
 * and synth loads them with the document.
 */
const REQUEST_VOCABULARY = ['functions/kernel/http/request-declaration', 'functions/kernel/http/validation', 'functions/kernel/http/multipart'];
const isRequestVocabulary = (target: string) => REQUEST_VOCABULARY.includes(target.replace(/\.ts$/, ''));

/** A slice's own route or worker table (`<slice>/<name>-routes.ts`, `-workers.ts`): its handlers take their entries from it. */
const isTable = (path: string) => placeOf(path)?.layer === undefined && placeOf(path) !== undefined && /-(routes|workers)\.ts$/.test(path);
const isSynthLoaded = (path: string) => SYNTH_LOADED.includes(path) || isTable(path);

interface Place {
  readonly slice: string;
  /** The layer folder, or undefined for a file at the slice's root (its route table, the env schema). */
  readonly layer?: Layer;
}

/** The slice and layer of a file under functions/; undefined outside the slices. */
function placeOf(path: string): Place | undefined {
  const [root, slice, layer] = path.split('/');
  if (root !== 'functions' || slice === undefined || !SLICES.includes(slice)) return undefined;
  if (path.split('/').length === 3) {
    // A slice's one composition root may sit at its root (`acp/acp-wiring.ts`) rather than alone in a
    // folder, and so may the kernel's OpenAPI kit (what every area's openapi/ fragment builds on).
    if (path.endsWith('-wiring.ts')) return { slice, layer: 'wiring' };
    if (/\/openapi-kit(\.ts)?$/.test(path)) return { slice, layer: 'openapi' };
    return { slice };
  }
  if (layer === 'app' && path.endsWith('-ports.ts')) return { slice, layer: 'ports' };
  return { slice, layer: layer as Layer };
}

/** Every broken rule, one readable line each. */
function layerViolations(files: readonly SourceFile[], exists: (p: string) => boolean): string[] {
  const out: string[] = [];
  const byPath = new Map(files.map((f) => [f.path, f]));
  /**
   * A leaf domain module imports nothing at run time (type imports only), so synth can load it without
   * pulling handler code: the error shapes, auth messages and rate limits the gateway shares.
   */
  const isLeaf = (r: ImportRef): boolean => {
    if (!r.local || placeOf(r.target)?.layer !== 'domain') return false;
    const target = byPath.get(r.target);
    return target !== undefined && importsOf(target, exists).every((i) => i.typeOnly);
  };
  const report = (r: ImportRef, rule: string) =>
    out.push(`${r.from}:${r.line} ${r.typeOnly ? 'import type' : 'imports'} '${r.specifier}'${r.local ? ` (${r.target})` : ''}: ${rule}`);
  for (const file of files) {
    const p = file.path;
    const place = placeOf(p);
    if (under(p, 'functions') && !place && !COMPOSITION.some((c) => under(p, c))) {
      out.push(`${p}: every file under functions/ lies in a slice (${SLICES.join(', ')}) or the composition (${COMPOSITION.join(', ')})`);
      continue;
    }
    if (place && place.layer !== undefined && !LAYERS.includes(place.layer)) {
      out.push(`${p}: ${place.layer} is not a layer of a slice (${LAYERS.join(', ')})`);
      continue;
    }
    for (const r of importsOf(file, exists)) {
      const to = r.local ? placeOf(r.target) : undefined;
      // Across slices: only inward (an area through the kernel, tenancy and conversations).
      if (place && to && to.slice !== place.slice && !MAY_USE[place.slice]!.includes(to.slice)) {
        const allowed = MAY_USE[place.slice]!;
        report(r, `functions/${place.slice} may import only ${allowed.length ? `${allowed.map((a) => `functions/${a}`).join(', ')} and ` : ''}its own slice`);
        continue;
      }
      // A slice never imports the composition on top of it, not even the joined tables' types.
      if (place && r.local && !to && under(r.target, 'functions')) {
        report(
          r,
          `functions/${place.slice} must not import ${r.target.split('/').slice(0, 2).join('/')}: the composition imports the slices, never the reverse`,
        );
        continue;
      }
      // Production code never imports the local platform (the CDK app only runs the console's build).
      const buildsConsole = p === 'bin/app.ts' && r.target === BUILT_BEFORE_SYNTH;
      if (r.local && under(r.target, 'functions/local') && !under(p, 'functions/local') && !under(p, 'functions/cli') && !buildsConsole) {
        report(r, 'nothing in production imports functions/local (only the local process and the CLI do)');
        continue;
      }
      const layer = place?.layer;
      const toLayer = to?.layer;
      if (layer === 'domain') {
        const ok = isBuiltin(r) || toLayer === 'domain' || (!r.local && DOMAIN_PURE_PACKAGES.includes(r.target));
        if (!ok) report(r, `a slice's domain may import only domains, node: builtins and ${DOMAIN_PURE_PACKAGES.join(', ')}`);
      } else if (layer === 'app') {
        const ok = r.local && (toLayer === 'domain' || toLayer === 'app' || toLayer === 'ports' || (r.typeOnly && isSynthLoaded(r.target)));
        if (!ok) report(r, 'a use case (app/) may import only domain, app, ports and types of the route vocabulary and of its slice’s tables');
      } else if (layer === 'ports') {
        const ok = isBuiltin(r) || (r.local ? toLayer === 'domain' || toLayer === 'ports' || (r.typeOnly && isSynthLoaded(r.target)) : r.typeOnly);
        if (!ok) report(r, 'ports may import only domain, ports, package types and types of the route and worker tables');
      } else if (layer === 'adapters') {
        const banned: readonly (Layer | undefined)[] = ['app', 'wiring', ...ENTRY_LAYERS];
        if (r.local && to && banned.includes(toLayer) && !isSynthLoaded(r.target)) report(r, 'adapters must not import use cases, wiring or entry points');
      } else if (layer === 'wiring') {
        // A use case may be bound into a port here (tenancy's key admission, the HTTP kit's port); entry points never.
        const banned: readonly (Layer | undefined)[] = [...ENTRY_LAYERS];
        if (r.local && to && banned.includes(toLayer) && !isSynthLoaded(r.target))
          report(r, 'wiring composes adapters and use cases: it must not import entry points');
      } else if (layer !== undefined && ENTRY_LAYERS.includes(layer)) {
        const ok =
          !r.local || !to || isSynthLoaded(r.target) || ['app', 'domain', 'ports', 'wiring', layer].includes(toLayer ?? '') || isRequestSchema(r.target);
        if (!ok)
          report(
            r,
            `${layer}/ may import only app, domain, ports, wiring, its own layer, request schemas, the route vocabulary and its slice's tables (never adapters or another entry layer)`,
          );
      } else if (isRequestSchema(p)) {
        // A type import adds nothing to a bundle.
        const ok =
          r.specifier === 'zod/mini' || r.typeOnly || (r.local && (toLayer === 'domain' || isRequestSchema(r.target) || isRequestVocabulary(r.target)));
        if (!ok) report(r, 'a request schema is in its functions’ bundles: zod/mini, types and pure domain rules only');
      } else if (layer === 'openapi' || (under(p, REFERENCE) && !under(p, `${REFERENCE}/http`))) {
        // functions/openapi/http/ holds the admin document's Lambda entry: synth never loads it.
        const ok =
          isBuiltin(r) ||
          r.specifier === 'zod' ||
          (r.local && (under(r.target, REFERENCE) || toLayer === 'openapi' || toLayer === 'domain' || isSynthLoaded(r.target))) ||
          (r.typeOnly && isRequestVocabulary(r.target)) ||
          // the composition's own request declarations (the job-run route's), which the admin document shows
          (r.local && r.target.startsWith('functions/jobs/') && r.target.endsWith('-requests.ts'));
        if (!ok) report(r, 'the API reference is loaded by synth: zod, node: builtins, the files synth loads, pure domain rules and the openapi folders only');
      }
      if (isSynthLoaded(p)) {
        const allowed = (p === 'functions/kernel/env.ts' && r.specifier === 'zod') || isLeaf(r) || (r.local && isSynthLoaded(r.target));
        if (!r.typeOnly && !allowed)
          report(
            r,
            `${p} is loaded by synth: type imports, the other files synth loads and leaf domain modules only${p === 'functions/kernel/env.ts' ? ' (and zod)' : ''}`,
          );
      } else if (under(p, 'lib') || under(p, 'bin')) {
        if (r.local && under(r.target, 'functions')) {
          const ok = isSynthLoaded(r.target) || under(r.target, REFERENCE) || (r.typeOnly && toLayer === 'domain') || isLeaf(r) || buildsConsole;
          if (!ok) report(r, 'lib/ and bin/ may import from functions/ only the files synth loads, the API reference, leaf domain modules and domain types');
        }
      }
    }
  }
  return out;
}

/**
 * The import cycles under functions/ whose modules lie in more than one folder, one line each (the
 * modules of a strongly connected component, sorted). Type imports count: a cycle of types still ties
 * two folders into one. A cycle inside one folder is that folder's own business.
 */
function crossFolderCycles(files: readonly SourceFile[], exists: (p: string) => boolean): string[] {
  const inTree = new Set(files.filter((f) => under(f.path, 'functions')).map((f) => f.path));
  const edges = new Map<string, string[]>();
  for (const f of files) {
    if (!inTree.has(f.path)) continue;
    const targets = importsOf(f, exists).filter((r) => r.local && inTree.has(r.target));
    edges.set(f.path, [...new Set(targets.map((r) => r.target))]);
  }
  // Tarjan's strongly connected components, iterative so a deep import chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; child: number }[] = [{ node: root, child: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1]!;
      const targets = edges.get(frame.node)!;
      if (frame.child < targets.length) {
        const to = targets[frame.child++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, child: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components
    .filter((c) => new Set(c.map((m) => dirname(m))).size > 1)
    .map((c) => `import cycle across folders: ${c.sort().join(' -> ')}`)
    .sort();
}

/** Module files whose names repeat under functions/: a name says what a module is, wherever it lies. */
function repeatedNames(paths: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const p of paths.filter((x) => under(x, 'functions'))) {
    const name = p.slice(p.lastIndexOf('/') + 1);
    byName.set(name, [...(byName.get(name) ?? []), p]);
  }
  return [...byName.values()].filter((ps) => ps.length > 1).map((ps) => ps.join(' and '));
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
    expect(paths).toContain('functions/kernel/domain/time.ts');
    expect(paths).toContain('functions/conversations/conversation-wiring.ts');
    const wiring = importsOf(files.find((f) => f.path === 'functions/conversations/conversation-wiring.ts')!, existsInRepo);
    expect(wiring.map((r) => r.target)).toContain('functions/conversations/adapters/dynamo-session-store.ts');
    // Every local import of the tree resolves to a file that exists (template-literal directories aside).
    const unresolved = files.flatMap((f) => importsOf(f, existsInRepo)).filter((r) => r.local && !r.target.endsWith('/') && !existsInRepo(r.target));
    expect(unresolved.map((r) => `${r.from}:${r.line} '${r.specifier}'`)).toEqual([]);
  });

  it('holds for every .ts file under functions/, lib/ and bin/', () => {
    const violations = layerViolations(files, existsInRepo);
    expect(violations, `layer violations:\n  ${violations.join('\n  ')}`).toEqual([]);
  });

  it('has no import cycle across folders under functions/', () => {
    expect(crossFolderCycles(files, existsInRepo)).toEqual([]);
  });

  it('names no two modules under functions/ alike', () => {
    expect(repeatedNames(files.map((f) => f.path))).toEqual([]);
  });

  it('leaves no layer folder of a slice with a single file', () => {
    const perFolder = new Map<string, number>();
    // A file at a slice's root (its one composition root, its tables) is in no layer folder.
    for (const f of files.filter((x) => placeOf(x.path)?.layer !== undefined && x.path.split('/').length > 3)) {
      const folder = f.path.slice(0, f.path.lastIndexOf('/'));
      perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
    }
    expect([...perFolder].filter(([, n]) => n === 1).map(([folder]) => folder)).toEqual([]);
  });

  it('calls only API Gateway (and its local stand-in) a gateway', () => {
    const gateways = files
      .filter((f) => under(f.path, 'functions'))
      .flatMap((f) => [...stripComments(f.text).matchAll(/\b(?:class|interface|type)\s+(\w*Gateway\w*)/g)].map((m) => `${f.path}: ${m[1]}`));
    expect(gateways.filter((g) => !/: (LocalApiGateway|ApiGateway\w*|APIGateway\w*|Gateway(Verdict|Answer|ResponseType))$/.test(g))).toEqual([]);
  });
});

describe('the layer check itself', () => {
  const exists = (p: string) =>
    [
      'functions/kernel/domain/a.ts',
      'functions/kernel/domain/b.ts',
      'functions/kernel/app/kernel-ports.ts',
      'functions/kernel/adapters/x.ts',
      'functions/kernel/app/u.ts',
      'functions/kernel/http/kit.ts',
      'functions/kernel/wiring/kernel-wiring.ts',
      'functions/tenancy/wiring/core-wiring.ts',
      'functions/tenancy/app/manage-apps.ts',
      'functions/tenancy/domain/org.ts',
      'functions/conversations/domain/session.ts',
      'functions/chat/domain/model.ts',
      'functions/chat/app/run-chat-turn.ts',
      'functions/acp/domain/checkout.ts',
      'functions/export/http/export-presenters.ts',
      'functions/export/openapi/export-requests.ts',
      'functions/export/openapi/export-operations.ts',
      'functions/export/domain/export-params.ts',
      'functions/export/app/export-lists.ts',
      'functions/local/local-platform.ts',
      'functions/jobs/app/run-job.ts',
      'functions/routes.ts',
      'functions/workers.ts',
      'functions/kernel/route-vocabulary.ts',
      'functions/chat/chat-routes.ts',
      'functions/acp/acp-routes.ts',
    ].includes(p);
  const check = (path: string, text: string) => layerViolations([{ path, text }], exists);

  it('flags the domain importing the AWS SDK, zod, an adapter or a Lambda type', () => {
    expect(check('functions/kernel/domain/a.ts', "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';")).toHaveLength(1);
    expect(check('functions/kernel/domain/a.ts', "import * as z from 'zod';")).toHaveLength(1);
    expect(check('functions/kernel/domain/a.ts', "import type { Context } from 'aws-lambda';")).toHaveLength(1);
    expect(check('functions/kernel/domain/a.ts', "import middy from '@middy/core'")).toHaveLength(1);
    expect(check('functions/kernel/domain/a.ts', "import {\n  X,\n  type Y,\n} from '../adapters/x';")).toEqual([
      "functions/kernel/domain/a.ts:1 imports '../adapters/x' (functions/kernel/adapters/x.ts): a slice's domain may import only domains, node: builtins and ipaddr.js, marked, @cfworker/json-schema",
    ]);
    expect(check('functions/kernel/domain/a.ts', "const m = await import('../adapters/x');")).toHaveLength(1);
    expect(check('functions/kernel/domain/a.ts', "export { b } from '../app/kernel-ports';")).toHaveLength(1);
  });

  it('lets the domain import domains, node: builtins and the listed pure packages', () => {
    expect(check('functions/kernel/domain/a.ts', "import { createHash } from 'node:crypto';\nimport { b } from './b';\nexport * from './b';")).toEqual([]);
    expect(check('functions/kernel/domain/a.ts', "import ipaddr from 'ipaddr.js';\nimport { Marked } from 'marked';")).toEqual([]);
    expect(check('functions/chat/domain/c.ts', "import { b } from '../../kernel/domain/b';\nimport { s } from '../../conversations/domain/session';")).toEqual(
      [],
    );
    expect(check('functions/kernel/domain/a.ts', "import busboy from 'busboy';")).toHaveLength(1);
  });

  it('ignores imports inside comments and strings', () => {
    expect(check('functions/kernel/domain/a.ts', "// import x from '../adapters/x'\n/* export * from 'zod' */\nconst s = \"import y from 'zod'\";")).toEqual(
      [],
    );
  });

  it('fails on an import across slices, in any layer', () => {
    expect(check('functions/export/app/list.ts', "import { run } from '../../chat/app/run-chat-turn';")).toEqual([
      "functions/export/app/list.ts:1 imports '../../chat/app/run-chat-turn' (functions/chat/app/run-chat-turn.ts): functions/export may import only functions/kernel, functions/tenancy, functions/conversations and its own slice",
    ]);
    expect(check('functions/chat/domain/c.ts', "import type { CheckoutSession } from '../../acp/domain/checkout';")).toHaveLength(1);
    expect(check('functions/kernel/http/p.ts', "import { exportApp } from '../../export/http/export-presenters';")).toHaveLength(1);
    expect(check('functions/kernel/domain/a.ts', "import type { Session } from '../../conversations/domain/session';")).toHaveLength(1);
    expect(check('functions/conversations/domain/s.ts', "import type { ModelRequest } from '../../chat/domain/model';")).toHaveLength(1);
    expect(check('functions/acp/app/u.ts', "import type { Session } from '../../conversations/domain/session';")).toEqual([]);
    // A handler takes its route from its own area's table, never from another area's.
    expect(check('functions/chat/http/h.handler.ts', "import { CHAT_ROUTES } from '../chat-routes';")).toEqual([]);
    expect(check('functions/chat/http/h.handler.ts', "import { ACP_ROUTES } from '../../acp/acp-routes';")).toHaveLength(1);
    // The kernel imports no slice, tenancy only the kernel, conversations both.
    expect(check('functions/kernel/http/p.ts', "import { createApp } from '../../tenancy/app/manage-apps';")).toHaveLength(1);
    expect(check('functions/tenancy/app/u.ts', "import type { Session } from '../../conversations/domain/session';")).toHaveLength(1);
    expect(check('functions/tenancy/app/u.ts', "import { a } from '../../kernel/domain/a';")).toEqual([]);
    expect(check('functions/conversations/app/u.ts', "import type { Org } from '../../tenancy/domain/org';")).toEqual([]);
  });

  it('keeps the kernel at the bottom: it imports no other slice, and every slice may import it', () => {
    expect(check('functions/kernel/route-vocabulary.ts', "import type { Session } from '../conversations/domain/session';")).toHaveLength(1);
    expect(check('functions/kernel/route-vocabulary.ts', "import { httpRoute } from './http/kit';")).toHaveLength(1);
    expect(check('functions/kernel/route-vocabulary.ts', "import { ROUTES } from '../routes';")).toHaveLength(1);
    expect(check('functions/kernel/http/kit.ts', "import type { RouteDef } from '../../kernel/route-vocabulary';")).toEqual([]);
    expect(check('functions/acp/http/h.handler.ts', "import type { RouteDef } from '../../kernel/route-vocabulary';")).toEqual([]);
  });

  it('keeps the slices off the composition around them, and production off the local platform', () => {
    expect(check('functions/kernel/app/u.ts', "import { runJob } from '../../jobs/app/run-job';")).toHaveLength(1);
    expect(check('functions/server/s.ts', "import type { LocalApiGateway } from '../local/local-platform';")).toHaveLength(1);
    // Not even the joined tables: a handler hands the kit its own route, so nothing below needs them.
    expect(check('functions/kernel/http/kit.ts', "import { ROUTES } from '../../routes';")).toHaveLength(1);
    expect(check('functions/kernel/http/kit.ts', "import type { RouteDef } from '../../routes';")).toHaveLength(1);
    expect(check('functions/export/workers/w.handler.ts', "import { QUEUES } from '../../workers';")).toHaveLength(1);
    expect(check('functions/chat/app/u.ts', "import { serve } from '../../server/http-server';")).toHaveLength(1);
    expect(check('functions/local/load-routes.ts', "import { ROUTES } from '../routes';")).toEqual([]);
    expect(check('functions/jobs/app/run-job.ts', "import { run } from '../../chat/app/run-chat-turn';")).toEqual([]);
    expect(check('functions/local/main.ts', "import { run } from '../chat/app/run-chat-turn';")).toEqual([]);
  });

  it('places every file: a slice layer or the composition', () => {
    expect(check('functions/http/kit.ts', '')).toHaveLength(1);
    expect(check('functions/chat/helpers/x.ts', '')).toHaveLength(1);
    expect(check('functions/chat/chat-routes.ts', '')).toEqual([]);
    expect(check('functions/chat/chat-workers.ts', '')).toEqual([]);
    expect(check('functions/routes.ts', '')).toEqual([]);
    expect(check('functions/chat/queue/x.handler.ts', '')).toHaveLength(1);
    expect(check('functions/platform/http/p.ts', '')).toHaveLength(1);
  });

  it('lets handlers parse with their request schemas, which stay in zod/mini and pure rules', () => {
    expect(check('functions/export/http/h.handler.ts', "import { EXPORT_REQUESTS } from '../openapi/export-requests';")).toEqual([]);
    expect(check('functions/export/http/h.handler.ts', "import { EXPORT_OPERATIONS } from '../openapi/export-operations';")).toHaveLength(1);
    expect(
      check('functions/export/openapi/export-requests.ts', "import * as z from 'zod/mini';\nimport { parseLimit } from '../domain/export-params';"),
    ).toEqual([]);
    expect(check('functions/export/openapi/export-requests.ts', "import * as z from 'zod';")).toHaveLength(1);
    expect(check('functions/export/openapi/export-requests.ts', "import { exportUsage } from '../app/export-lists';")).toHaveLength(1);
    expect(check('functions/export/openapi/export-requests.ts', "import { param } from '../../kernel/http/request-declaration';")).toEqual([]);
    expect(check('functions/export/openapi/export-requests.ts', "import { httpRoute } from '../../kernel/http/kit';")).toHaveLength(1);
  });

  it('keeps the API reference fragments off handler code', () => {
    expect(check('functions/chat/openapi/chat-operations.ts', "import * as z from 'zod';\nimport { json } from '../../kernel/openapi-kit';")).toEqual([]);
    expect(check('functions/chat/openapi/chat-operations.ts', "import { run } from '../app/run-chat-turn';")).toHaveLength(1);
    expect(check('functions/openapi/document.ts', "import { CHAT_OPERATIONS } from '../chat/openapi/chat-operations';")).toEqual([]);
    expect(check('functions/openapi/document.ts', "import { run } from '../chat/app/run-chat-turn';")).toHaveLength(1);
    // Area C's request bodies are documented from the checks that parse them (pure domain rules).
    expect(check('functions/acp/openapi/acp-operations.ts', "import { requestBodySchema } from '../domain/checkout';")).toEqual([]);
  });

  it('flags use cases reaching adapters, wiring or the http kit, and allows domain, app and ports', () => {
    expect(check('functions/kernel/app/u.ts', "import { DynamoAppStore } from '../adapters/x';")).toHaveLength(1);
    expect(check('functions/kernel/app/u.ts', "import { buildCoreDeps } from '../wiring/core-wiring';")).toHaveLength(1);
    expect(check('functions/kernel/app/u.ts', "import type { HttpDeps } from '../http/kit';")).toHaveLength(1);
    expect(
      check('functions/kernel/app/u.ts', "import type { Clock } from './kernel-ports';\nimport { a } from '../domain/a';\nimport { u } from './u';"),
    ).toEqual([]);
  });

  it('flags adapters importing use cases or entry points', () => {
    expect(check('functions/kernel/adapters/y.ts', "import { createApp } from '../app/u';")).toHaveLength(1);
    expect(check('functions/kernel/adapters/y.ts', "import type { HttpDeps } from '../http/kit';")).toHaveLength(1);
    expect(
      check('functions/kernel/adapters/y.ts', "import { GetCommand } from '@aws-sdk/lib-dynamodb';\nimport type { Clock } from '../app/kernel-ports';"),
    ).toEqual([]);
  });

  it('flags a runtime import in the route tables and keeps type imports', () => {
    expect(check('functions/routes.ts', "import { ORG_SCOPES } from './kernel/domain/a';")).toHaveLength(1);
    expect(check('functions/chat/chat-routes.ts', "import { run } from './app/run-chat-turn';")).toHaveLength(1);
    expect(check('functions/routes.ts', "import { type OrgScope } from './kernel/domain/a';")).toHaveLength(1);
    expect(check('functions/routes.ts', "import type { OrgScope } from './kernel/domain/a';")).toEqual([]);
    expect(check('functions/kernel/env.ts', "import * as z from 'zod';")).toEqual([]);
  });

  it('keeps entry points off adapters, local and each other, and the wiring off entry points', () => {
    expect(check('functions/kernel/http/kit.ts', "import { DynamoAppStore } from '../adapters/x';")).toHaveLength(1);
    expect(check('functions/kernel/http/kit.ts', "import type { KernelPorts } from '../wiring/kernel-wiring';\nimport { u } from '../app/u';")).toEqual([]);
    expect(check('functions/kernel/workers/w.ts', "import type { HttpDeps } from '../http/kit';")).toHaveLength(1);
    expect(check('functions/kernel/workers/j.ts', "import { x } from '../../local/local-platform';")).toHaveLength(1);
    expect(check('functions/kernel/wiring/w.ts', "import type { HttpDeps } from '../http/kit';")).toHaveLength(1);
    expect(check('functions/kernel/wiring/w.ts', "import { DynamoAppStore } from '../adapters/x';\nimport type { Clock } from '../app/kernel-ports';")).toEqual(
      [],
    );
    expect(check('functions/kernel/app/kernel-ports.ts', "import { DynamoAppStore } from '../adapters/x';")).toHaveLength(1);
    expect(check('functions/kernel/app/kernel-ports.ts', "import type { Logger } from '@aws-lambda-powertools/logger';")).toEqual([]);
    expect(check('functions/kernel/app/kernel-ports.ts', "import { Logger } from '@aws-lambda-powertools/logger';")).toHaveLength(1);
    // Ports live in app/ beside the use cases, and stay ports: they import no use case.
    expect(check('functions/kernel/app/kernel-ports.ts', "import { u } from './u';")).toHaveLength(1);
  });

  it('flags lib/ importing handler code, and allows the synth-safe files and domain types', () => {
    expect(check('lib/api-stack.ts', "import { buildCoreDeps } from '../functions/tenancy/wiring/core-wiring';")).toHaveLength(1);
    expect(check('lib/api-stack.ts', "import { a } from '../functions/kernel/domain/a';")).toHaveLength(1);
    expect(check('lib/api-stack.ts', "import { ROUTES } from '../functions/routes';\nimport type { A } from '../functions/kernel/domain/a';")).toEqual([]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text under test holds a template literal.
    expect(check('bin/app.ts', 'const k = await import(`../functions/chat/http/${name}.handler.ts`);')).toHaveLength(1);
  });

  it('lets lib/ and synth-safe files load leaf domain modules, and no domain module that imports at run time', () => {
    const files: SourceFile[] = [
      { path: 'functions/kernel/domain/a.ts', text: "import type { X } from './b';\nexport const A = 1;" },
      { path: 'functions/kernel/domain/b.ts', text: "import { createHash } from 'node:crypto';\nexport const B = 2;" },
    ];
    const run = (path: string, text: string) => layerViolations([...files, { path, text }], (p) => files.some((f) => f.path === p) || exists(p));
    expect(run('lib/x.ts', "import { A } from '../functions/kernel/domain/a';")).toEqual([]);
    expect(run('functions/routes.ts', "import { B } from './kernel/domain/b';")).toHaveLength(1);
    expect(run('functions/kernel/http/api-gateway-contract.ts', "import { A } from '../domain/a';")).toEqual([]);
    expect(run('lib/x.ts', "import { B } from '../functions/kernel/domain/b';")).toHaveLength(1);
    expect(run('functions/kernel/http/api-gateway-contract.ts', "import { B } from '../domain/b';")).toHaveLength(1);
  });

  it('finds import cycles that span two folders, type imports included, and leaves those inside one folder alone', () => {
    const cycles = (tree: Record<string, string>) => {
      const files = Object.entries(tree).map(([path, text]) => ({ path, text }));
      return crossFolderCycles(files, (p) => p in tree);
    };
    expect(
      cycles({
        'functions/kernel/http/kit.ts': "import type { RouteDef } from '../../routes';",
        'functions/routes.ts': "import { CHAT_ROUTES } from './chat/chat-routes';",
        'functions/chat/chat-routes.ts': "import { httpRoute } from '../kernel/http/kit';",
        'functions/chat/other.ts': "import { CHAT_ROUTES } from './chat-routes';",
      }),
    ).toEqual(['import cycle across folders: functions/chat/chat-routes.ts -> functions/kernel/http/kit.ts -> functions/routes.ts']);
    expect(
      cycles({
        'functions/chat/domain/a.ts': "import type { B } from './b';",
        'functions/chat/domain/b.ts': "import type { A } from './a';",
        'functions/chat/app/u.ts': "import type { A } from '../domain/a';",
      }),
    ).toEqual([]);
  });

  it('finds repeated module names', () => {
    expect(repeatedNames(['functions/a/x.ts', 'functions/b/x.ts', 'functions/b/y.ts', 'lib/x.ts'])).toEqual(['functions/a/x.ts and functions/b/x.ts']);
  });
});
