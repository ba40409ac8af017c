import type { PageProps } from '../pages';

export function SessionsPage(_props: PageProps) {
  return <p>This page is not built yet.</p>;
}
