/**
 * An adapter built on first use, from a module imported then: `loadOnce(load)` gives a function that
 * runs `load` at its first call and hands every caller the same result; a failed load (an import that
 * failed) is tried again on the next call rather than remembered.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    }));
}
