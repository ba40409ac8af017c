import type { PageProps } from '../pages';

export function AuditLogPage(_props: PageProps) {
  return <p>This page is not built yet.</p>;
}
