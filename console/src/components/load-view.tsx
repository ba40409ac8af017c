/** What a page shows for a read in progress, failed (with its advice) or refused to the role. */
import type { ComponentChildren } from 'preact';
import type { Load } from '../use-load';

interface Props<T> {
  readonly state: Load<T> | undefined;
  /** Said when `state` is undefined: the role may not read this. */
  readonly refused?: string;
  readonly children: (value: T) => ComponentChildren;
}

export function LoadView<T>({ state, refused, children }: Props<T>) {
  if (!state) return <p>{refused ?? 'Your role cannot see this.'}</p>;
  if (state.kind === 'loading') return <p role="status">Loading…</p>;
  if (state.kind === 'failed') return <p role="alert">{state.message}</p>;
  return <>{children(state.value)}</>;
}
