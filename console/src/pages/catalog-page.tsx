import type { PageProps } from '../pages';

export function CatalogPage(_props: PageProps) {
  return <p>This page is not built yet.</p>;
}
