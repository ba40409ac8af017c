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

/** No favicon request: the provider serves none, and a 404 is one more error in the browser's console. */
const NO_ICON = '<link rel="icon" href="data:,">';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(uid: string, error?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in - local platform</title>${NO_ICON}
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

/**
 * `formTarget`: the client's redirect URI (registered, checked by the provider). Browsers apply
 * `form-action` to the redirects that follow a post too, and the login's post ends at the client.
 */
function send(res: ServerResponse, status: number, html: string, formTarget?: string): void {
  const formAction = ["'self'", ...(formTarget ? [new URL(formTarget).origin] : [])].join(' ');
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
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
  const redirectUri = typeof details.params.redirect_uri === 'string' ? details.params.redirect_uri : undefined;
  if (req.method === 'GET' && path === `${INTERACTION_PREFIX}${details.uid}`) return send(res, 200, page(details.uid), redirectUri);
  if (req.method === 'POST' && path === `${INTERACTION_PREFIX}${details.uid}/login`) {
    const form = await readForm(req);
    const user = checkPassword(users, form.get('email') ?? '', form.get('password') ?? '');
    if (!user) return send(res, 401, page(details.uid, 'Wrong e-mail or password.'), redirectUri);
    return provider.interactionFinished(req, res, { login: { accountId: user.subject } }, { mergeWithLastSubmission: false });
  }
  send(res, 404, '<!doctype html><title>Not found</title><p>Not found.</p>');
}

const STYLE =
  '<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:4rem auto;padding:0 1rem}button{margin:1rem .5rem 0 0;padding:.5rem 1rem}</style>';

/**
 * The provider's sign-out confirmation and error pages, plain like the sign-in page: its defaults load
 * a web font from another origin, which a closed network refuses and a browser test counts.
 */
export const providerPages = {
  logoutSource: async (ctx: { body: unknown }, form: string): Promise<void> => {
    ctx.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign out - local platform</title>${NO_ICON}${STYLE}</head><body><main>
<h1>Sign out of the local platform?</h1>
${form}
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button type="submit" form="op.logoutForm">No, stay signed in</button>
</main></body></html>`;
  },
  renderError: async (ctx: { type: string; body: unknown }, out: Record<string, unknown>): Promise<void> => {
    ctx.type = 'html';
    const lines = Object.entries(out).map(([key, value]) => `<p><strong>${escapeHtml(key)}</strong>: ${escapeHtml(String(value))}</p>`);
    ctx.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in error - local platform</title>${NO_ICON}${STYLE}</head><body><main>
<h1>Something went wrong</h1>
${lines.join('\n')}
</main></body></html>`;
  },
};
