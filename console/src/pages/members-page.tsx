import type { PageProps } from '../pages';

export function MembersPage(_props: PageProps) {
  return <p>This page is not built yet.</p>;
}
