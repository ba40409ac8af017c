/**
 * One app's settings: everything the console API's app PATCH takes (the MCP connections in their own
 * form, since they are sent whole), and deleting the app behind a typed confirmation. A role that may
 * only read sees every control disabled, with the reason.
 */
import { useId, useState } from 'preact/hooks';
import { callApi, can, orgPath } from '../api-client';
import { APPS_MANAGE_REASON, type AppView, shortTime } from '../apps-views';
import { ConfirmDialog } from '../components/confirm-dialog';
import { GuardedButton } from '../components/guarded-button';
import { LoadView } from '../components/load-view';
import type { PageProps } from '../pages';
import { useAction, useLoad } from '../use-load';
import { AppSettingsForm } from './apps-settings-form';
import { McpConnectionsForm } from './apps-mcp-form';

interface Props extends PageProps {
  readonly appId: string;
  readonly onDeleted: (name: string) => void;
}

export function AppSettingsView({ org, appId, navigate, onDeleted }: Props) {
  const path = orgPath(org.orgId, `apps/${encodeURIComponent(appId)}`);
  const app = useLoad<AppView>(path);
  const back = (
    <p>
      <a
        href="/console/apps"
        onClick={(e) => {
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
          e.preventDefault();
          navigate('/console/apps');
        }}
      >
        All apps
      </a>
    </p>
  );
  return (
    <>
      {back}
      <LoadView state={app.state}>{(a) => <AppDetail org={org} app={a} path={path} onSaved={app.reload} onDeleted={onDeleted} />}</LoadView>
    </>
  );
}

interface DetailProps {
  readonly org: PageProps['org'];
  readonly app: AppView;
  readonly path: string;
  /** Reads the app again after a change (the forms keep what was typed, which is what was saved). */
  readonly onSaved: () => void;
  readonly onDeleted: (name: string) => void;
}

function AppDetail({ org, app, path, onSaved, onDeleted }: DetailProps) {
  const reasonId = useId();
  const allowed = can(org, 'apps.manage');
  const readOnly = allowed ? undefined : { id: reasonId, text: `${APPS_MANAGE_REASON} (your role: ${org.role}). The settings are shown read-only.` };
  const save = (body: unknown) => callApi<{ data: AppView }>(path, { method: 'PATCH', body });
  return (
    <>
      <h2>{app.name}</h2>
      <dl class="facts">
        <dt>App name id</dt>
        <dd>
          <code>{app.appNameId}</code>{' '}
          <span class="muted">
            (the <code>model</code> chat clients send)
          </span>
        </dd>
        <dt>App id</dt>
        <dd>
          <code>{app.id}</code>
        </dd>
        <dt>Created</dt>
        <dd>{shortTime(app.createdAt)}</dd>
        <dt>Last changed</dt>
        <dd>{shortTime(app.updatedAt)}</dd>
      </dl>
      {readOnly && (
        <p id={readOnly.id} class="notice">
          {readOnly.text}
        </p>
      )}
      <AppSettingsForm app={app} readOnlyReasonId={readOnly?.id} save={save} onSaved={onSaved} />
      <McpConnectionsForm app={app} readOnlyReasonId={readOnly?.id} save={save} onSaved={onSaved} />
      <DeleteApp org={org} app={app} path={path} onDeleted={onDeleted} />
    </>
  );
}

function DeleteApp({ org, app, path, onDeleted }: Pick<DetailProps, 'org' | 'app' | 'path' | 'onDeleted'>) {
  const [open, setOpen] = useState(false);
  const action = useAction();
  const remove = async () => {
    const done = await action.run(() => callApi<void>(path, { method: 'DELETE' }).then(() => true));
    if (done) onDeleted(app.name);
  };
  return (
    <section aria-labelledby="delete-app-heading" class="danger-zone">
      <h3 id="delete-app-heading">Delete this app</h3>
      <p>Its chat and ACP requests stop at once, and its sessions, messages and consumers are deleted.</p>
      <GuardedButton org={org} permission="apps.manage" reason={APPS_MANAGE_REASON} variant="danger" onClick={() => setOpen(true)}>
        Delete app…
      </GuardedButton>
      {open && (
        <ConfirmDialog
          title={`Delete ${app.name}?`}
          confirmText={app.name}
          actionLabel="Delete app"
          busy={action.busy}
          error={action.error}
          onConfirm={() => void remove()}
          onClose={() => {
            action.clearError();
            setOpen(false);
          }}
        >
          <p>
            The app leaves every list now; chat requests with <code>model: "{app.appNameId}"</code> are refused. Its sessions and their messages are then
            deleted in the background.
          </p>
          <p>
            The export's deletion feed (<code>GET /api/v1/org/tombstones</code>) will show one tombstone with cause <code>app_deleted</code> for each session of
            the app: ids only, never content. A warehouse that applies the feed removes them too.
          </p>
          <p>This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
