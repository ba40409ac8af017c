/**
 * `npm run admin -- <noun> <verb> [--flags]`: the admin CLI. Prints one JSON object per call (the API's
 * response body) and exits non-zero when the call failed.
 *
 * Target: the running local server by default (URL and admin token from DATA_DIR, default .data/);
 * a deployed stack when ADMIN_API_URL is set, signed with SigV4 from the default AWS credential chain
 * unless ADMIN_TOKEN is set.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROUTES } from '../routes';
import { COMMANDS, type AdminTarget, type Command, type Flags, type RouteCommand } from './commands';
import { signedFetch } from './sigv4-fetch';

/** One command's line of the usage: its flags, then its summary. */
function commandUsage(noun: string, verb: string, c: Command): string[] {
  const flags = [...c.required.map((f) => `--${f} <${f}>`), ...(c.optional ?? []).map((f) => `[--${f} <${f}>]`)].join(' ');
  return [`  ${noun} ${verb} ${flags}`.trimEnd(), `      ${c.summary}`];
}

function usage(): string {
  const lines = ['usage: npm run admin -- <noun> <verb> [--flag value ...]', ''];
  for (const [noun, verbs] of Object.entries(COMMANDS)) {
    for (const [verb, c] of Object.entries(verbs)) lines.push(...commandUsage(noun, verb, c));
  }
  lines.push('', 'env: ADMIN_API_URL (default: the local server), ADMIN_TOKEN, DATA_DIR (default .data), AWS_REGION');
  return lines.join('\n');
}

function fail(message: string, code = 2): never {
  console.log(JSON.stringify({ error: { code: 'cli_error', message } }));
  process.exit(code);
}

function target(): AdminTarget {
  const dataDir = process.env.DATA_DIR ?? '.data';
  if (process.env.ADMIN_API_URL) {
    return { baseUrl: process.env.ADMIN_API_URL.replace(/\/+$/, ''), ...(process.env.ADMIN_TOKEN ? { token: process.env.ADMIN_TOKEN } : {}) };
  }
  const demoFile = join(dataDir, 'demo.json');
  const tokenFile = join(dataDir, 'admin-token');
  if (!existsSync(demoFile) || !existsSync(tokenFile)) {
    fail(`no local platform found in ${dataDir}/: start it with \`npm start\`, or set ADMIN_API_URL for a deployed stack`);
  }
  const demo = JSON.parse(readFileSync(demoFile, 'utf8')) as { baseUrl: string };
  return { baseUrl: demo.baseUrl, token: process.env.ADMIN_TOKEN ?? readFileSync(tokenFile, 'utf8').trim() };
}

function buildPath(command: RouteCommand, flags: Flags): string {
  const route = ROUTES.find((r) => r.id === command.routeId);
  if (!route) fail(`internal: no route ${command.routeId}`);
  return route.path.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(flags[command.params?.[p] ?? p] ?? ''));
}

async function main(): Promise<void> {
  const [noun, verb, ...rest] = process.argv.slice(2);
  if (!noun || noun === 'help' || noun === '--help') {
    console.error(usage());
    process.exit(noun ? 0 : 2);
  }
  const command = COMMANDS[noun]?.[verb ?? ''];
  if (!command) fail(`unknown command "${[noun, verb].filter(Boolean).join(' ')}"; run \`npm run admin -- help\``);
  if (rest.includes('--help')) {
    console.error(['usage: npm run admin --', ...commandUsage(noun, verb!, command)].join('\n'));
    process.exit(0);
  }
  const known = [...command.required, ...(command.optional ?? [])];
  let flags: Flags;
  try {
    flags = parseArgs({ args: rest, options: Object.fromEntries(known.map((k) => [k, { type: 'string' as const }])), strict: true, allowPositionals: false })
      .values as Flags;
  } catch (err) {
    fail(`${(err as Error).message}; flags of "${noun} ${verb}": ${known.map((k) => `--${k}`).join(' ')}`);
  }
  const missing = command.required.filter((f) => flags[f] === undefined);
  if (missing.length) fail(`missing ${missing.map((m) => `--${m}`).join(', ')}`);
  if ('run' in command) process.exit(await command.run(flags, target()));

  const route = ROUTES.find((r) => r.id === command.routeId)!;
  let body: string | undefined;
  let contentType: string | undefined;
  try {
    if (command.rawBody) ({ contentType, text: body } = command.rawBody(flags));
    else if (command.body) {
      body = JSON.stringify(command.body(flags));
      contentType = 'application/json';
    }
  } catch (err) {
    fail((err as Error).message);
  }
  const t = target();
  const url = t.baseUrl + buildPath(command, flags);
  const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
  let res: Response;
  try {
    res = t.token
      ? await fetch(url, { method: route.method, headers: { ...headers, Authorization: `Bearer ${t.token}` }, body })
      : await signedFetch(url, { method: route.method, headers, body });
  } catch (err) {
    fail(`cannot reach ${t.baseUrl}: ${(err as Error).message}; is the platform running (npm start)?`, 1);
  }
  const text = await res.text();
  let out: unknown;
  try {
    out = text ? JSON.parse(text) : { status: res.status };
  } catch {
    out = { status: res.status, body: text };
  }
  console.log(JSON.stringify(out, null, 2));
  process.exit(res.ok ? 0 : 1);
}

void main();
