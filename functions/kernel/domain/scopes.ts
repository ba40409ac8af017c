/** Org-key read scopes of area A. Kept in domain so rules do not depend on the route table module. */
export type OrgScope = 'apps:read' | 'transcripts:read' | 'usage:read' | 'tombstones:read';

export const ORG_SCOPES: readonly OrgScope[] = ['apps:read', 'transcripts:read', 'usage:read', 'tombstones:read'];

export function isOrgScope(value: string): value is OrgScope {
  return (ORG_SCOPES as readonly string[]).includes(value);
}
