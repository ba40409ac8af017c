/**
 * The signed-in console: a header (org, switcher when there are several, e-mail, sign out), the nav
 * and the current page. Navigation keeps real links (keyboard, new tab) and moves focus to the heading.
 */
import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { callApi, type OrgMembership, type SessionView } from './api-client';
import { CHOSEN_ORG_KEY, hrefOf, type Page, PAGES, type PageProps, pageAt } from './pages';

interface Props {
  readonly session: SessionView;
  readonly onSignedOut: () => void;
}

export function AppShell({ session, onSignedOut }: Props) {
  const [pathname, setPathname] = useState(location.pathname);
  const [orgId, setOrgId] = useState(() => takeChosenOrg(session) ?? session.orgs[0]?.orgId);
  const heading = useRef<HTMLHeadingElement>(null);
  const org = session.orgs.find((o) => o.orgId === orgId);
  const at = pageAt(pathname);
  const page = at?.page;

  useEffect(() => {
    document.title = `${page?.title ?? 'Page not found'} - ${org?.name ?? 'Console'} - Application Platform`;
  }, [page, org]);

  useEffect(() => {
    const onPop = () => setPathname(location.pathname);
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  const navigate = (href: string) => {
    history.pushState(null, '', href);
    setPathname(location.pathname);
    queueMicrotask(() => heading.current?.focus());
  };
  const go = (event: MouseEvent, href: string) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };

  const signOut = async () => {
    const answer = await callApi<{ logoutUrl: string | null }>('/console/auth/logout', { method: 'POST' }).catch(() => ({ logoutUrl: null }));
    if (answer.logoutUrl) location.assign(answer.logoutUrl);
    else {
      history.pushState(null, '', '/console/');
      onSignedOut();
    }
  };

  return (
    <>
      <a class="skip-link" href="#content">
        Skip to content
      </a>
      <header class="top-bar">
        <p class="brand">Application Platform</p>
        {session.orgs.length > 1 ? (
          <label class="org-switcher">
            Organisation{' '}
            <select value={orgId} onChange={(e) => setOrgId((e.currentTarget as HTMLSelectElement).value)}>
              {session.orgs.map((o) => (
                <option key={o.orgId} value={o.orgId}>
                  {o.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <p class="org-name">{org?.name ?? 'No organisation'}</p>
        )}
        <p class="person">{session.person.email ?? 'Signed in'}</p>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <nav aria-label="Console" class="side-nav">
        <ul>
          {PAGES.filter((p) => !p.hidden).map((p) => (
            <li key={p.path}>
              <a href={hrefOf(p)} aria-current={p === page ? 'page' : undefined} onClick={(e) => go(e, hrefOf(p))}>
                {p.title}
              </a>
            </li>
          ))}
        </ul>
        <ul class="outside-links" aria-label="Elsewhere">
          <li>
            <a href="/docs">API reference</a>
          </li>
          <li>
            <a href="/release-notes">Release notes</a>
          </li>
        </ul>
      </nav>
      <main id="content" class="content">
        <h1 ref={heading} tabIndex={-1}>
          {page?.title ?? 'Page not found'}
        </h1>
        {at && (org || at.page.orgFree) ? (
          // An orgFree page takes OrgFreePageProps: it is the one page given no org.
          <LazyPage key={`${org?.orgId} ${at.page.path}`} page={at.page} props={{ org: org as OrgMembership, session, rest: at.rest, navigate }} />
        ) : !org ? (
          <p>You are not a member of any organisation yet. Ask an owner to invite you.</p>
        ) : (
          <p>There is no such page in the console.</p>
        )}
      </main>
    </>
  );
}

function takeChosenOrg(session: SessionView): string | undefined {
  const chosen = sessionStorage.getItem(CHOSEN_ORG_KEY);
  sessionStorage.removeItem(CHOSEN_ORG_KEY);
  return session.orgs.find((o) => o.orgId === chosen)?.orgId;
}

const loaded = new Map<Page, ComponentType<PageProps>>();

/** A page's chunk, fetched on first use and kept; a failed fetch (a new deploy, offline) says to reload. */
function LazyPage({ page, props }: { readonly page: Page; readonly props: PageProps }) {
  const [component, setComponent] = useState<ComponentType<PageProps> | 'failed' | undefined>(() => loaded.get(page));
  useEffect(() => {
    if (loaded.has(page)) return;
    page.load().then(
      (c) => {
        loaded.set(page, c);
        setComponent(() => c);
      },
      () => setComponent('failed'),
    );
  }, [page]);
  if (component === 'failed') return <p role="alert">This page could not be loaded. Reload the console to get its latest version.</p>;
  if (!component) return <p role="status">Loading…</p>;
  const Component = component;
  return <Component {...props} />;
}
