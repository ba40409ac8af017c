import type { PageProps } from '../pages';

export function UsagePage(_props: PageProps) {
  return <p>This page is not built yet.</p>;
}
