/**
 * The console's pages, by path under /console/. Each page is its own chunk, loaded when first shown,
 * so the first page carries only the shell. A page receives the org, the rest of the path after its
 * own segment (`/console/apps/app_1` gives the apps page `['app_1']`) and `navigate`.
 */
import type { ComponentType } from 'preact';
import type { OrgMembership, SessionView } from './api-client';

export interface PageProps {
  readonly org: OrgMembership;
  readonly session: SessionView;
  /** Path segments after the page's own, decoded. */
  readonly rest: readonly string[];
  /** Moves to another console path without a reload (history entry, focus on the heading). */
  readonly navigate: (href: string) => void;
}

/** The props of a page shown to someone in no org too (`orgFree`): `org` is then undefined. */
export type OrgFreePageProps = Omit<PageProps, 'org'> & { readonly org: OrgMembership | undefined };

export interface Page {
  readonly path: string;
  readonly title: string;
  /** An `orgFree` page's component takes `OrgFreePageProps`. */
  readonly load: () => Promise<ComponentType<PageProps>>;
  /** Left out of the navigation (a page reached by a link, such as accepting an invitation). */
  readonly hidden?: boolean;
  /** Shown to a signed-in person who is in no org yet (accepting an invitation is how they join one). */
  readonly orgFree?: boolean;
}

export const CONSOLE_BASE = '/console/';

/** The org a page chose for the shell's next start (accepting an invitation opens the org joined), read once. */
export const CHOSEN_ORG_KEY = 'console.chosenOrg';

export const PAGES: readonly Page[] = [
  { path: '', title: 'Overview', load: () => import('./pages/overview-page').then((m) => m.OverviewPage) },
  { path: 'apps', title: 'Apps', load: () => import('./pages/apps-page').then((m) => m.AppsPage) },
  { path: 'keys', title: 'Keys', load: () => import('./pages/keys-page').then((m) => m.KeysPage) },
  { path: 'sessions', title: 'Sessions', load: () => import('./pages/sessions-page').then((m) => m.SessionsPage) },
  { path: 'usage', title: 'Usage', load: () => import('./pages/usage-page').then((m) => m.UsagePage) },
  { path: 'catalog', title: 'Catalog', load: () => import('./pages/catalog-page').then((m) => m.CatalogPage) },
  { path: 'exports', title: 'Exports', load: () => import('./pages/exports-page').then((m) => m.ExportsPage) },
  { path: 'members', title: 'Members', load: () => import('./pages/members-page').then((m) => m.MembersPage) },
  { path: 'audit-log', title: 'Audit log', load: () => import('./pages/audit-log-page').then((m) => m.AuditLogPage) },
  {
    path: 'invitations',
    title: 'Accept an invitation',
    hidden: true,
    orgFree: true,
    load: () => import('./pages/invitation-accept-page').then((m) => m.InvitationAcceptPage),
  },
];

export const hrefOf = (page: Page, ...rest: string[]): string => `${CONSOLE_BASE}${[page.path, ...rest.map(encodeURIComponent)].filter(Boolean).join('/')}`;

/** The page a location names and the segments after it; undefined for a path no page has. */
export function pageAt(pathname: string): { readonly page: Page; readonly rest: readonly string[] } | undefined {
  const tail = pathname.startsWith(CONSOLE_BASE) ? pathname.slice(CONSOLE_BASE.length) : '';
  const [first = '', ...rest] = tail.split('/').filter(Boolean);
  const page = PAGES.find((p) => p.path === first);
  if (!page || (page.path === '' && rest.length > 0)) return undefined;
  try {
    return { page, rest: rest.map(decodeURIComponent) };
  } catch {
    return undefined;
  }
}
