/**
 * What a browser does with redirects and cookies, for the console's sign-in flow only: one jar for
 * every origin (cookie names differ between the platform and the issuer), paths ignored, a cookie
 * with `Max-Age=0` dropped. Redirects are followed by hand, so each hop can be asserted.
 */
export class CookieBrowser {
  readonly jar = new Map<string, string>();

  async request(url: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      redirect: 'manual',
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, eq), pair!.slice(eq + 1)];
      if (/Max-Age=0(;|$)/.test(cookie)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }

  /** Follows redirects while they stay on `url`'s origin; returns the first that leaves it. */
  async follow(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<{ res: Response; url: string }> {
    let res = await this.request(url, init);
    let at = url;
    while (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, at).toString();
      if (new URL(next).origin !== new URL(url).origin) return { res, url: next };
      at = next;
      res = await this.request(at);
    }
    return { res, url: at };
  }
}

/** The action of the embedded provider's sign-in form. */
export function formAction(html: string, pageUrl: string): string {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no sign-in form in ${html.slice(0, 200)}`);
  return new URL(action, pageUrl).toString();
}
