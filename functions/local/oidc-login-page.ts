/**
 * The embedded provider's own sign-in page (its development pages are off): a server-rendered form
 * with no script and no external asset, posting back to the provider's origin. A good e-mail and
 * password finish the interaction; anything else shows the form again with a 401.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { checkPassword, type ConsoleUser } from './console-accounts';

export const INTERACTION_PREFIX = '/interaction/';
const MAX_FORM_BYTES = 4096;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(uid: string, error?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in - local platform</title>
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem}label{display:block;margin-top:1rem}input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1.5rem;padding:.5rem 1rem}p[role=alert]{color:#a00}</style>
</head><body><main>
<h1>Sign in</h1>
<p>Local OpenID provider of the Application Platform. The demo users are in <code>.data/demo.json</code>.</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${INTERACTION_PREFIX}${encodeURIComponent(uid)}/login">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form></main></body></html>`;
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    'x-content-type-options': 'nosniff',
  });
  res.end(html);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > MAX_FORM_BYTES) throw new Error('form too large');
  }
  return new URLSearchParams(body);
}

/** Serves `/interaction/<uid>` (the form) and `/interaction/<uid>/login` (its post). */
export async function handleInteraction(provider: Provider, users: readonly ConsoleUser[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res).catch(() => undefined);
  if (!details) return send(res, 400, '<!doctype html><title>Sign-in expired</title><p>This sign-in has expired. Start again from the console.</p>');
  const path = new URL(req.url ?? '/', 'http://local').pathname;
  if (req.method === 'GET' && path === `${INTERACTION_PREFIX}${details.uid}`) return send(res, 200, page(details.uid));
  if (req.method === 'POST' && path === `${INTERACTION_PREFIX}${details.uid}/login`) {
    const form = await readForm(req);
    const user = checkPassword(users, form.get('email') ?? '', form.get('password') ?? '');
    if (!user) return send(res, 401, page(details.uid, 'Wrong e-mail or password.'));
    return provider.interactionFinished(req, res, { login: { accountId: user.subject } }, { mergeWithLastSubmission: false });
  }
  send(res, 404, '<!doctype html><title>Not found</title><p>Not found.</p>');
}
