/**
 * The Org Export API as the reference sync client sees it: a tiny HTTP interface (so tests and other
 * runtimes can supply their own) and the retry rules of the spec. Self-contained on purpose: customers
 * copy this directory into their warehouse pull, so it imports nothing from the platform.
 *
 * Retry rules: 429 waits `Retry-After` and tries again; 5xx and network failures back off
 * exponentially (with jitter) a bounded number of times; any other 4xx fails the run with the error body.
 */

/** One HTTP response, already read. */
export interface HttpResponse {
  readonly status: number;
  header(name: string): string | null;
  readonly text: string;
}

/** Requests against the export API with the org key; each throws on network failure (no status at all). */
export interface HttpTransport {
  get(pathAndQuery: string): Promise<HttpResponse>;
  /** POST a JSON body (a snapshot export). A transport without it syncs by pages only. */
  post?(pathAndQuery: string, body: string): Promise<HttpResponse>;
  /** GET an absolute URL without the key (a snapshot file's presigned link): its status and bytes. */
  download?(url: string): Promise<{ readonly status: number; readonly bytes: Uint8Array }>;
}

/** The standard transport: `fetch` against `baseUrl`, `Authorization: Bearer <key>`, a per-request timeout. */
export function fetchTransport(baseUrl: string, key: string, opts: { timeoutMs?: number; fetchImpl?: typeof fetch } = {}): HttpTransport {
  const root = baseUrl.replace(/\/+$/, '');
  const doFetch = opts.fetchImpl ?? fetch;
  const read = async (res: Response): Promise<HttpResponse> => {
    const text = await res.text();
    return { status: res.status, header: (name) => res.headers.get(name), text };
  };
  return {
    async get(pathAndQuery) {
      return read(
        await doFetch(root + pathAndQuery, {
          headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
          signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
        }),
      );
    },
    async post(pathAndQuery, body) {
      return read(
        await doFetch(root + pathAndQuery, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, Accept: 'application/json', 'Content-Type': 'application/json' },
          body,
          signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
        }),
      );
    },
    async download(url) {
      // A presigned link carries its own authorization: the key never goes to the object store.
      const res = await doFetch(url, { signal: AbortSignal.timeout(Math.max(opts.timeoutMs ?? 30_000, 300_000)) });
      return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
    },
  };
}

export interface RetryPolicy {
  /** Retries of one request after a 5xx or a network failure. */
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Consecutive 429 answers to one request before the run gives up. */
  readonly maxRateLimitWaits: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 5, baseDelayMs: 500, maxDelayMs: 30_000, maxRateLimitWaits: 30 };

/** A request the client will not retry (4xx other than 429), or one whose retries ran out. */
export class ExportApiError extends Error {
  constructor(
    readonly status: number | null,
    readonly path: string,
    /** The API's error body ({ error: { code, message } }) when it sent JSON, else its text. */
    readonly body: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'ExportApiError';
  }
}

export interface RequestStats {
  /** Requests to the export API (each counts against the key's rate limit). */
  requests: number;
  retries: number;
  rateLimited: number;
  /** Snapshot files fetched from their presigned links (object storage: no rate limit). */
  downloads: number;
}

function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/** `Retry-After` as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export class ExportApi {
  readonly stats: RequestStats = { requests: 0, retries: 0, rateLimited: 0, downloads: 0 };

  constructor(
    private readonly transport: HttpTransport,
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly policy: RetryPolicy = DEFAULT_RETRY_POLICY,
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * GETs `path` with `query` and returns the parsed JSON body of a 200. With `notFoundAsNull`, a 404
   * returns null (a session deleted between listing it and fetching its transcript).
   */
  async get(path: string, query: Record<string, string | undefined> = {}, opts: { notFoundAsNull?: boolean } = {}): Promise<unknown> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, v);
    const search = qs.toString();
    const target = search ? `${path}?${search}` : path;
    return this.call('GET', target, () => this.transport.get(target), opts);
  }

  /** POSTs a JSON body to `path`: the parsed JSON body of a 2xx, null for a 404 with `notFoundAsNull`; the retry rules of GET. */
  async post(path: string, body: unknown, opts: { notFoundAsNull?: boolean } = {}): Promise<unknown> {
    const post = this.transport.post;
    if (!post) throw new ExportApiError(null, path, null, `POST ${path}: this transport cannot POST`);
    return this.call('POST', path, () => post.call(this.transport, path, JSON.stringify(body)), opts);
  }

  /** The bytes at a presigned URL, with the retry rules of GET for network failures and 5xx. */
  async download(url: string): Promise<Uint8Array> {
    const download = this.transport.download;
    if (!download) throw new ExportApiError(null, url, null, 'this transport cannot download files');
    let failures = 0;
    for (;;) {
      this.stats.downloads++;
      try {
        const res = await download.call(this.transport, url);
        if (res.status === 200) return res.bytes;
        if (res.status < 500 || failures >= this.policy.maxRetries)
          throw new ExportApiError(res.status, url.split('?')[0]!, null, `download: HTTP ${res.status}`);
      } catch (err) {
        if (err instanceof ExportApiError || failures >= this.policy.maxRetries) throw err;
      }
      await this.backoff(failures++);
    }
  }

  private async call(method: string, target: string, send: () => Promise<HttpResponse>, opts: { notFoundAsNull?: boolean }): Promise<unknown> {
    let failures = 0;
    let rateLimits = 0;
    for (;;) {
      this.stats.requests++;
      let res: HttpResponse;
      try {
        res = await send();
      } catch (err) {
        if (failures >= this.policy.maxRetries) {
          throw new ExportApiError(null, target, String(err), `${method} ${target}: network failure after ${failures + 1} attempts: ${String(err)}`);
        }
        await this.backoff(failures++);
        continue;
      }
      if (res.status >= 200 && res.status < 300) return parseBody(res.text);
      if (res.status === 404 && opts.notFoundAsNull) return null;
      if (res.status === 429) {
        this.stats.rateLimited++;
        if (rateLimits++ >= this.policy.maxRateLimitWaits) {
          throw new ExportApiError(429, target, parseBody(res.text), `${method} ${target}: still rate limited after ${rateLimits} waits`);
        }
        const wait = retryAfterMs(res.header('retry-after'), Date.now());
        await this.sleep(wait ?? this.delayFor(rateLimits - 1));
        continue;
      }
      if (res.status >= 500) {
        if (failures >= this.policy.maxRetries) {
          throw new ExportApiError(res.status, target, parseBody(res.text), `${method} ${target}: HTTP ${res.status} after ${failures + 1} attempts`);
        }
        await this.backoff(failures++);
        continue;
      }
      throw new ExportApiError(res.status, target, parseBody(res.text), `${method} ${target}: HTTP ${res.status}`);
    }
  }

  private delayFor(attempt: number): number {
    const ceiling = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** attempt);
    // Full jitter between half the ceiling and the ceiling: retries of many clients do not line up.
    return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
  }

  private async backoff(attempt: number): Promise<void> {
    this.stats.retries++;
    await this.sleep(this.delayFor(attempt));
  }
}
