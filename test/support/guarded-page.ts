/**
 * A browser page that records what a console page must never do: log an error, throw, ask an origin
 * other than the allowed ones (the console's and, while signing in, its issuer's) or get a 5xx.
 */
import type { BrowserContext, Page } from 'playwright-core';

export interface GuardedPage {
  readonly page: Page;
  /** Everything forbidden that happened so far (a test expects none). */
  readonly problems: string[];
  /** Refusals the test provokes on purpose (path and status), whose console line Chromium logs as an error. */
  readonly expectedRefusals: { readonly path: string; readonly status: number }[];
}

/**
 * Chromium logs every failed fetch. One read answers a refusal that the console expects: its own
 * session probe (401 when no one is signed in).
 */
const EXPECTED_REFUSALS: readonly { readonly status: number; readonly path: RegExp }[] = [{ status: 401, path: /^\/console\/auth\/session$/ }];
const isRefusalOf = (text: string, url: string, r: { readonly status: number; readonly path: RegExp | string }) =>
  text.includes(`status of ${r.status} `) && (typeof r.path === 'string' ? new URL(url).pathname === r.path : r.path.test(new URL(url).pathname));

export async function guardedPage(context: BrowserContext, allowedOrigins: readonly string[]): Promise<GuardedPage> {
  const page = await context.newPage();
  const problems: string[] = [];
  const expectedRefusals: GuardedPage['expectedRefusals'] = [];
  const isExpectedRefusal = (text: string, url: string) => [...EXPECTED_REFUSALS, ...expectedRefusals].some((r) => isRefusalOf(text, url, r));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const url = msg.location().url;
    if (url && isExpectedRefusal(msg.text(), url)) return;
    problems.push(`console error: ${msg.text()} (${url})`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => {
    const url = new URL(req.url());
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !allowedOrigins.includes(url.origin)) problems.push(`request to ${url.origin}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 500) problems.push(`${res.status()} from ${res.url()}`);
  });
  return { page, problems, expectedRefusals };
}
