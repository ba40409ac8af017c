/** The console's pages, by path under /console/; only the overview has content so far. */
export interface Page {
  readonly path: string;
  readonly title: string;
}

export const CONSOLE_BASE = '/console/';

export const PAGES: readonly Page[] = [
  { path: '', title: 'Overview' },
  { path: 'apps', title: 'Apps' },
  { path: 'keys', title: 'Keys' },
  { path: 'sessions', title: 'Sessions' },
  { path: 'usage', title: 'Usage' },
  { path: 'catalog', title: 'Catalog' },
  { path: 'exports', title: 'Exports' },
  { path: 'members', title: 'Members' },
  { path: 'audit-log', title: 'Audit log' },
];

export const hrefOf = (page: Page): string => `${CONSOLE_BASE}${page.path}`;

/** The page a location names; an unknown path shows the overview's neighbour "not found" state. */
export function pageAt(pathname: string): Page | undefined {
  const rest = pathname.startsWith(CONSOLE_BASE) ? pathname.slice(CONSOLE_BASE.length).replace(/\/+$/, '') : '';
  return PAGES.find((p) => p.path === rest);
}
