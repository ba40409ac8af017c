import type { PageProps } from '../pages';

export function AppsPage(_props: PageProps) {
  return <p>This page is not built yet.</p>;
}
