/**
 * Reading one backend path into a page: loading, ready or failed (with advice), and `reload` after a
 * change. A path of `undefined` reads nothing (the role may not read it); a newer path wins over a slower
 * older answer.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { adviceOf, callApi, type Query } from './api-client';

export type Load<T> = { readonly kind: 'loading' } | { readonly kind: 'ready'; readonly value: T } | { readonly kind: 'failed'; readonly message: string };

export interface Loaded<T> {
  readonly state: Load<T> | undefined;
  readonly reload: () => void;
}

/** The `data` of `GET path` (the console's answers wrap their payload in `{ data }`). */
export function useLoad<T>(path: string | undefined, query?: Query): Loaded<T> {
  return useRead<{ data: T }, T>(path, query, (answer) => answer.data);
}

export interface ListPage<T> {
  readonly items: readonly T[];
  /** Reads the next page (pass it as the `cursor` query parameter); null on the last page. */
  readonly nextCursor: string | null;
}

/** One page of a keyset list, `{ data, nextCursor }` (pass the pager's cursor in `query.cursor`). */
export function useLoadPage<T>(path: string | undefined, query?: Query): Loaded<ListPage<T>> {
  return useRead<{ data: T[]; nextCursor?: string | null }, ListPage<T>>(path, query, (a) => ({ items: a.data, nextCursor: a.nextCursor ?? null }));
}

/**
 * The answer is kept with the path and query it answers: a new path or query shows "Loading…" rather
 * than the last answer under the new filters, while `reload` (same key) keeps the rows on screen.
 */
function useRead<A, T>(path: string | undefined, query: Query | undefined, select: (answer: A) => T): Loaded<T> {
  const queryKey = JSON.stringify(query ?? {});
  const key = `${path} ${queryKey}`;
  const [answered, setAnswered] = useState<{ readonly key: string; readonly state: Load<T> } | undefined>();
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!path) return;
    let current = true;
    callApi<A>(path, { query }).then(
      (answer) => current && setAnswered({ key, state: { kind: 'ready', value: select(answer) } }),
      (err: unknown) => current && setAnswered({ key, state: { kind: 'failed', message: adviceOf(err) } }),
    );
    return () => {
      current = false;
    };
    // The query is compared by value (queryKey); `select` is fixed per caller.
  }, [key, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const state: Load<T> = answered?.key === key ? answered.state : { kind: 'loading' };
  return { state: path ? state : undefined, reload };
}

/** A change sent to the backend: `run` resolves to the answer, or to undefined after showing the advice. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const run = useCallback(async <T>(call: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await call();
    } catch (err) {
      setError(adviceOf(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, clearError: () => setError(undefined) };
}
