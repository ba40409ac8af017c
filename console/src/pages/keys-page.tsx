/**
 * The org's keys of every kind by prefix, name, scopes or app, expiry, creator and last use (never a
 * secret); creating one (its secret shown once), rotating and revoking.
 */
import { useId, useState } from 'preact/hooks';
import { can, orgPath } from '../api-client';
import { type AppView, expiresSoon, type IssuedKeyView, KEY_KINDS, KEYS_MANAGE_REASON, type KeyKind, type KeyView, shortTime } from '../apps-views';
import { Field } from '../components/field';
import { GuardedButton } from '../components/guarded-button';
import { LoadView } from '../components/load-view';
import { Pager, usePager } from '../components/pager';
import type { PageProps } from '../pages';
import { useLoad, useLoadPage } from '../use-load';
import { graceNote, RevokeKeyDialog, RotateKeyDialog } from './keys-change-dialogs';
import { CreateKeyDialog } from './keys-create-dialog';
import { SecretDialog } from './keys-secret-dialog';

type Open =
  | { readonly kind: 'create' }
  | { readonly kind: 'secret'; readonly issued: IssuedKeyView; readonly note?: string }
  | { readonly kind: 'revoke' | 'rotate'; readonly target: KeyView };

export function KeysPage({ org }: PageProps) {
  const [filter, setFilter] = useState<KeyKind | ''>('');
  const pager = usePager();
  const keys = useLoadPage<KeyView>(orgPath(org.orgId, 'keys'), { kind: filter || undefined, cursor: pager.cursor });
  const apps = useLoad<AppView[]>(orgPath(org.orgId, 'apps'));
  const appList = apps.state?.kind === 'ready' ? apps.state.value : [];
  const appOf = (id: string | null) => appList.find((a) => a.id === id);
  const appLabel = (id: string | null) => appOf(id)?.name ?? (apps.state?.kind === 'ready' ? 'a deleted app' : 'an app');
  const [open, setOpen] = useState<Open | undefined>();
  const [said, setSaid] = useState('');
  const captionId = useId();
  const rowReasonId = useId();
  const mayManage = can(org, 'keys.manage');
  const changed = (what: string, next?: Open) => {
    setSaid(what);
    setOpen(next);
    // The list is newest first: a new key (made or rotated) is on the first page.
    if (next?.kind === 'secret') pager.reset();
    keys.reload();
  };

  return (
    <>
      <p>
        Org keys read the Org Export API; chat keys and ACP keys belong to one app. A key's secret is shown once, when it is made; after that only its prefix.
      </p>
      <GuardedButton
        org={org}
        permission="keys.manage"
        reason={KEYS_MANAGE_REASON}
        variant="primary"
        onClick={() => {
          apps.reload();
          setOpen({ kind: 'create' });
        }}
      >
        Create a key…
      </GuardedButton>
      <p role="status">{said}</p>
      <Field label="Show">
        {({ id }) => (
          <select
            id={id}
            class="narrow"
            value={filter}
            onChange={(e) => {
              setFilter(e.currentTarget.value as KeyKind | '');
              pager.reset();
            }}
          >
            <option value="">Every kind</option>
            {(Object.keys(KEY_KINDS) as KeyKind[]).map((k) => (
              <option key={k} value={k}>
                {KEY_KINDS[k]}s
              </option>
            ))}
          </select>
        )}
      </Field>
      {!mayManage && (
        <p id={rowReasonId} class="muted">
          Rotate and Revoke are off for your role ({org.role}): {KEYS_MANAGE_REASON}.
        </p>
      )}
      <LoadView state={keys.state}>
        {(page) => (
          <>
            {/* Focusable so a keyboard can scroll it when it is wider than the screen (a viewer's row has no enabled button). */}
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (WCAG 2.1.1) */}
            <section class="table-scroll" aria-labelledby={captionId} tabIndex={0}>
              <table class="list">
                <caption id={captionId}>Keys of {org.name}, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Key</th>
                    <th scope="col">Scopes or app</th>
                    <th scope="col">Expires (UTC)</th>
                    <th scope="col">Created (UTC)</th>
                    <th scope="col">Last used (UTC)</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.length === 0 && (
                    <tr>
                      <td colSpan={6}>No keys{filter ? ' of this kind' : ''} yet.</td>
                    </tr>
                  )}
                  {page.items.map((k) => (
                    <KeyRow
                      key={k.id}
                      org={org}
                      k={k}
                      appLabel={appLabel(k.appId)}
                      reasonId={mayManage ? undefined : rowReasonId}
                      onRevoke={() => setOpen({ kind: 'revoke', target: k })}
                      onRotate={() => setOpen({ kind: 'rotate', target: k })}
                    />
                  ))}
                </tbody>
              </table>
            </section>
            <Pager pager={pager} nextCursor={page.nextCursor} label="Keys" />
          </>
        )}
      </LoadView>
      {open?.kind === 'create' && (
        <CreateKeyDialog
          orgId={org.orgId}
          apps={appList}
          onClose={() => setOpen(undefined)}
          onCreated={(issued) => changed(`Created ${KEY_KINDS[issued.kind].toLowerCase()} ${issued.prefix}.`, { kind: 'secret', issued })}
        />
      )}
      {open?.kind === 'secret' && <SecretDialog issued={open.issued} app={appOf(open.issued.appId)} note={open.note} onClose={() => setOpen(undefined)} />}
      {open?.kind === 'revoke' && (
        <RevokeKeyDialog
          orgId={org.orgId}
          target={open.target}
          onClose={() => setOpen(undefined)}
          onDone={(k) => changed(`Revoked ${k.prefix}: it is refused from now on.`)}
        />
      )}
      {open?.kind === 'rotate' && (
        <RotateKeyDialog
          orgId={org.orgId}
          target={open.target}
          onClose={() => setOpen(undefined)}
          onDone={(r) =>
            changed(`Rotated ${r.previous.prefix} into ${r.successor.prefix}. ${graceNote(r.previous)}`, {
              kind: 'secret',
              issued: r.successor,
              note: graceNote(r.previous),
            })
          }
        />
      )}
    </>
  );
}

interface RowProps {
  readonly org: PageProps['org'];
  readonly k: KeyView;
  readonly appLabel: string;
  readonly reasonId: string | undefined;
  readonly onRevoke: () => void;
  readonly onRotate: () => void;
}

function KeyRow({ org, k, appLabel, reasonId, onRevoke, onRotate }: RowProps) {
  const creator = k.createdBy ? (k.createdBy.kind === 'operator' ? 'an operator' : (k.createdBy.email ?? 'a member')) : 'no one recorded';
  return (
    <tr>
      <th scope="row">
        <code>{k.prefix}</code>
        <span class="block">{k.name ?? <span class="muted">No name</span>}</span>
        <span class="muted block">{KEY_KINDS[k.kind]}</span>
      </th>
      <td>
        {k.kind === 'org'
          ? k.scopes.map((s) => (
              <span class="block" key={s}>
                {s}
              </span>
            ))
          : appLabel}
      </td>
      <td>
        {k.state === 'revoked' ? (
          <>
            <strong class="block">Revoked</strong>
            {stamp(k.revokedAt)}
          </>
        ) : (
          <>
            {k.state === 'expired' && <strong class="block">Expired</strong>}
            {k.state === 'active' && k.rotatedToId && <strong class="block">Rotated: works until</strong>}
            {stamp(k.expiresAt)}
            {expiresSoon(k) && <strong class="badge">expires soon</strong>}
          </>
        )}
      </td>
      <td>
        {stamp(k.createdAt)}
        <span class="muted block">by {creator}</span>
      </td>
      <td>{stamp(k.lastUsedAt)}</td>
      <td class="row-actions">
        {k.state === 'active' && (
          <>
            {!k.rotatedToId && (
              <GuardedButton org={org} permission="keys.manage" reason={KEYS_MANAGE_REASON} reasonShownAt={reasonId} onClick={onRotate}>
                Rotate<span class="sr-only"> {k.prefix}</span>
              </GuardedButton>
            )}
            <GuardedButton org={org} permission="keys.manage" reason={KEYS_MANAGE_REASON} reasonShownAt={reasonId} variant="danger" onClick={onRevoke}>
              Revoke<span class="sr-only"> {k.prefix}</span>
            </GuardedButton>
          </>
        )}
      </td>
    </tr>
  );
}

/** A cell's timestamp to the minute; the column says UTC. */
const stamp = (iso: string | null) => (iso ? shortTime(iso).replace(' UTC', '') : 'Never');
