/**
 * Keyset paging over a list the backend answers with `{ data, nextCursor }`: the cursors already seen
 * are kept, so "Previous" goes back without the backend paging backwards.
 */
import { useState } from 'preact/hooks';

export function usePager() {
  const [stack, setStack] = useState<readonly string[]>([]);
  return {
    cursor: stack[stack.length - 1],
    page: stack.length + 1,
    next: (cursor: string) => setStack((s) => [...s, cursor]),
    previous: () => setStack((s) => s.slice(0, -1)),
    reset: () => setStack([]),
  };
}

interface Props {
  readonly pager: ReturnType<typeof usePager>;
  readonly nextCursor: string | null | undefined;
  readonly label: string;
}

export function Pager({ pager, nextCursor, label }: Props) {
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={pager.page === 1} onClick={pager.previous}>
        Previous page
      </button>
      <span>Page {pager.page}</span>
      <button type="button" disabled={!nextCursor} onClick={() => nextCursor && pager.next(nextCursor)}>
        Next page
      </button>
    </nav>
  );
}
