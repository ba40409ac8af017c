/**
 * The org's apps: the list, a new app (then its settings), and one app's settings at
 * `/console/apps/<appId>`, a real address that survives a reload.
 */
import { useState } from 'preact/hooks';
import { callApi, can, orgPath } from '../api-client';
import { APPS_MANAGE_REASON, type AppView, shortTime } from '../apps-views';
import { Field } from '../components/field';
import { GuardedButton } from '../components/guarded-button';
import { LoadView } from '../components/load-view';
import type { PageProps } from '../pages';
import { useAction, useLoad } from '../use-load';
import { AppSettingsView } from './apps-settings';

export function AppsPage(props: PageProps) {
  // The page stays mounted between the list and an app's settings, so this live region announces what
  // was done on one view when the next one shows (a new app's settings, the list after a deletion).
  const [said, setSaid] = useState({ text: '', at: '' });
  const appId = props.rest[0];
  const setNotice = (text: string, at = '') => setSaid({ text, at });
  const onDeleted = (name: string) => {
    setNotice(`Deleted ${name}. Its sessions are being deleted in the background, each with an app_deleted tombstone in the export.`);
    props.navigate('/console/apps');
  };
  return (
    <>
      <p role="status">{said.at === (appId ?? '') ? said.text : ''}</p>
      {appId ? <AppSettingsView {...props} appId={appId} onDeleted={onDeleted} /> : <AppsList {...props} setNotice={setNotice} />}
    </>
  );
}

interface ListProps extends PageProps {
  readonly setNotice: (notice: string, at?: string) => void;
}

function AppsList({ org, navigate, setNotice }: ListProps) {
  const apps = useLoad<AppView[]>(orgPath(org.orgId, 'apps'));
  return (
    <>
      <CreateApp org={org} navigate={navigate} setNotice={setNotice} />
      <LoadView state={apps.state}>
        {(list) =>
          list.length === 0 ? (
            <p>No apps yet. Create one above: a chat key and the chat API address it by its app name id.</p>
          ) : (
            <div class="table-scroll">
              <table class="list">
                <caption>Apps of {org.name}, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">
                      App name id (the chat <code>model</code>)
                    </th>
                    <th scope="col">Model</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {[...list]
                    .sort((x, y) => y.createdAt.localeCompare(x.createdAt))
                    .map((app) => (
                      <tr key={app.id}>
                        <th scope="row">
                          <a
                            href={`/console/apps/${encodeURIComponent(app.id)}`}
                            onClick={(e) => {
                              if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                              e.preventDefault();
                              navigate(`/console/apps/${encodeURIComponent(app.id)}`);
                            }}
                          >
                            {app.name}
                          </a>
                        </th>
                        <td>
                          <code>{app.appNameId}</code>
                        </td>
                        <td>
                          <code>{app.settings.model}</code>
                        </td>
                        <td>{shortTime(app.createdAt)}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </div>
          )
        }
      </LoadView>
    </>
  );
}

function CreateApp({ org, navigate, setNotice }: Pick<ListProps, 'org' | 'navigate' | 'setNotice'>) {
  const [name, setName] = useState('');
  const action = useAction();
  const allowed = can(org, 'apps.manage');
  const create = async () => {
    const made = await action.run(() => callApi<{ data: AppView }>(orgPath(org.orgId, 'apps'), { method: 'POST', body: { name: name.trim() } }));
    if (!made) return;
    setNotice(
      `Created ${made.data.name}: chat clients send model "${made.data.appNameId}". Set it up below, then make it a chat key on the Keys page.`,
      made.data.id,
    );
    navigate(`/console/apps/${encodeURIComponent(made.data.id)}`);
  };
  return (
    <section aria-labelledby="new-app-heading">
      <h2 id="new-app-heading">New app</h2>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (allowed && name.trim()) void create();
        }}
      >
        <Field label="App name" hint="Shown in the console; its app name id is made from it.">
          {({ id, describedBy }) => (
            <input
              id={id}
              aria-describedby={describedBy}
              value={name}
              maxLength={200}
              required
              disabled={!allowed}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          )}
        </Field>
        <GuardedButton
          org={org}
          permission="apps.manage"
          reason={APPS_MANAGE_REASON}
          variant="primary"
          busy={action.busy}
          onClick={() => name.trim() && void create()}
        >
          {action.busy ? 'Creating…' : 'Create app'}
        </GuardedButton>
      </form>
      {action.error && <p role="alert">{action.error}</p>}
    </section>
  );
}
