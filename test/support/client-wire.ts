/**
 * A fetch for client libraries' `fetch` option that records every request and response, so a client
 * test's failure shows the raw exchanges the library made (`traced`).
 */

/** One HTTP exchange as the client library made it. */
export interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly request: any;
  readonly status: number;
  readonly sessionId: string | null;
  /** The whole response body, once the client has read it (a stream included). */
  readonly body: Promise<string>;
}

export class Wire {
  readonly exchanges: Exchange[] = [];

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const raw = typeof init?.body === 'string' ? init.body : undefined;
    const res = await fetch(input, init);
    let request: unknown = raw;
    try {
      request = raw === undefined ? undefined : JSON.parse(raw);
    } catch {
      // not JSON: kept as the text
    }
    this.exchanges.push({ method, url, request, status: res.status, sessionId: res.headers.get('x-chat-session-id'), body: res.clone().text() });
    return res;
  };

  /** The request bodies POSTed to a path ending with `suffix` (chat completions unless told), in order. */
  requests(suffix = '/chat/completions'): any[] {
    return this.exchanges.filter((e) => e.method === 'POST' && new URL(e.url).pathname.endsWith(suffix)).map((e) => e.request);
  }

  async dump(): Promise<string> {
    const parts = await Promise.all(
      this.exchanges.map(
        async (e, i) => `#${i + 1} ${e.method} ${e.url}\n>>> ${JSON.stringify(e.request)}\n<<< ${e.status} ${(await e.body.catch(String)).slice(0, 4000)}`,
      ),
    );
    return parts.join('\n\n') || '(no request was made)';
  }
}

/** A test body given a fresh Wire; a failure carries the raw exchanges in its message. */
export function traced(body: (wire: Wire) => Promise<void>): () => Promise<void> {
  return async () => {
    const wire = new Wire();
    try {
      await body(wire);
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      e.message = `${e.message}\n\n--- raw exchanges ---\n${await wire.dump()}`;
      throw e;
    }
  };
}
