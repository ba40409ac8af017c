/**
 * What the README states that the code can produce stays true: the "What it is" table lists every
 * route of the route table under its area (a new route the table does not list fails here), a count
 * of the API reference's paths is the generated document's, and a runnable block can be pasted as it
 * stands (no `[--optional]` flags, no `<placeholder>` values).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../functions/openapi/document';
import type { Area } from '../../functions/kernel/route-vocabulary';
import { ROUTES } from '../../functions/routes';

const README = readFileSync('README.md', 'utf8');

/** The table's first column, by the start of its text, for each area. */
const ROW_OF_AREA: Readonly<Record<Area, string>> = {
  export: 'A. ',
  chat: 'B. ',
  acp: 'C. ',
  releaseNotes: 'D. ',
  console: 'Console',
  admin: 'Admin',
};

/** The body of the section under `heading`, up to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no "${heading}" section`);
  const level = heading.indexOf(' ');
  const rest = README.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level}} `));
  return end < 0 ? rest : rest.slice(0, end);
}

function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`unbalanced braces in ${text}`);
}

/** The top-level comma-separated parts of a brace group's content. */
function alternatives(content: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < content.length; i++) {
    if (content[i] === '{') depth++;
    else if (content[i] === '}') depth--;
    else if (content[i] === ',' && depth === 0) {
      parts.push(content.slice(from, i));
      from = i + 1;
    }
  }
  return [...parts, content.slice(from)];
}

/**
 * A path as the table writes it, as a regular expression over route paths: `{a,b}` is either, `{id}`
 * any path parameter, `…` anything from there on.
 */
function pathPattern(written: string): string {
  let out = '';
  for (let i = 0; i < written.length; i++) {
    const c = written[i]!;
    if (c === '{') {
      const close = closingBrace(written, i);
      const parts = alternatives(written.slice(i + 1, close));
      out += parts.length > 1 ? `(?:${parts.map(pathPattern).join('|')})` : '\\{[^/{}]+\\}';
      i = close;
    } else if (c === '…') out += '.*';
    else out += c.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  }
  return out;
}

interface Listed {
  readonly text: string;
  readonly method?: string;
  readonly path: RegExp;
}

/** The routes a row of the "What it is" table lists: each code span, with its method when it names one. */
function listedIn(area: Area): Listed[] {
  const row = section('## What it is')
    .split('\n')
    .find((line) => line.startsWith(`| ${ROW_OF_AREA[area]}`));
  if (!row) throw new Error(`the "What it is" table has no row for area ${area}`);
  const routes = row.split('|')[2] ?? '';
  return [...routes.matchAll(/`([^`]+)`/g)].map(([, text]) => {
    const m = /^(?:(GET|POST|PUT|PATCH|DELETE) )?(\/\S*)$/.exec(text!);
    if (!m) throw new Error(`not a route in the ${area} row: ${text}`);
    return { text: text!, ...(m[1] ? { method: m[1] } : {}), path: new RegExp(`^${pathPattern(m[2]!)}$`) };
  });
}

const lists = (l: Listed, route: { method: string; path: string }) => (l.method ?? route.method) === route.method && l.path.test(route.path);

describe('README', () => {
  it('lists every route of the route table in the "What it is" row of its area', () => {
    const missing = ROUTES.filter((route) => !listedIn(route.area).some((l) => lists(l, route))).map((r) => `${r.area}: ${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it('lists no route the route table does not have', () => {
    const stale = (Object.keys(ROW_OF_AREA) as Area[]).flatMap((area) =>
      listedIn(area)
        .filter((l) => !ROUTES.some((route) => route.area === area && lists(l, route)))
        .map((l) => `${area}: ${l.text}`),
    );
    expect(stale).toEqual([]);
  });

  it("states the API reference's number of paths only as the generated document has it", () => {
    const paths = Object.keys(buildOpenApiDocument().paths as object).length;
    for (const [, count] of README.matchAll(/(\d+) paths\b/g)) expect(Number(count)).toBe(paths);
  });

  it('has runnable blocks that paste as they stand: no optional [--flag], no <placeholder>', () => {
    const blocks = [...README.matchAll(/```bash\n([\s\S]*?)```/g)].map(([, body]) => body!);
    expect(blocks.length).toBeGreaterThan(10);
    const unpasteable = blocks.flatMap((body) => body.split('\n').filter((line) => /\[--|<[A-Za-z][^<>\s]*>/.test(line)));
    expect(unpasteable).toEqual([]);
  });
});
