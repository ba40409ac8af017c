/**
 * A new key in one short form: its kind (an org key for the export, a chat key or an ACP key of one
 * app), a name, the org key's scopes, and when it stops working.
 */
import { useState } from 'preact/hooks';
import { callApi, orgPath } from '../api-client';
import { type AppView, type ExpiryChoice, expiresAtOf, type IssuedKeyView, KEY_KINDS, type KeyKind, ORG_KEY_SCOPES, type OrgKeyScope } from '../apps-views';
import { Dialog } from '../components/dialog';
import { Field } from '../components/field';
import { useAction } from '../use-load';

interface Props {
  readonly orgId: string;
  readonly apps: readonly AppView[];
  readonly onCreated: (issued: IssuedKeyView) => void;
  readonly onClose: () => void;
}

const KIND_HINTS: Readonly<Record<KeyKind, string>> = {
  org: 'reads the whole org through the Org Export API, within its scopes',
  chat: 'sends chat turns to one app through the Chat Completions API',
  acp: 'runs one app’s ACP checkout',
};
const EXPIRIES: readonly { readonly value: ExpiryChoice; readonly label: string }[] = [
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: 'never', label: 'Never' },
  { value: 'custom', label: 'On a day I pick' },
];

export function CreateKeyDialog({ orgId, apps, onCreated, onClose }: Props) {
  const [kind, setKind] = useState<KeyKind>('chat');
  const [name, setName] = useState('');
  // The apps may arrive after the dialog opens (they are read again on opening, a new app included).
  const [picked, setAppId] = useState('');
  const appId = apps.some((a) => a.id === picked) ? picked : (apps[0]?.id ?? '');
  const [scopes, setScopes] = useState<readonly OrgKeyScope[]>([]);
  const [expiry, setExpiry] = useState<ExpiryChoice>('90');
  const [day, setDay] = useState('');
  const [invalid, setInvalid] = useState('');
  const action = useAction();

  const submit = async () => {
    const expires = expiresAtOf(expiry, day);
    const problem =
      expires.error ||
      (kind === 'org' && scopes.length === 0 ? 'Tick at least one scope: an org key reads only what its scopes allow.' : '') ||
      (kind !== 'org' && !appId ? 'Pick the app the key belongs to; create an app first if there is none.' : '');
    setInvalid(problem);
    if (problem) return;
    const common = { ...(name.trim() ? { name: name.trim() } : {}), ...(expires.value ? { expiresAt: expires.value } : {}) };
    const [path, body] =
      kind === 'org'
        ? [orgPath(orgId, 'keys'), { ...common, scopes }]
        : [orgPath(orgId, `apps/${encodeURIComponent(appId)}/${kind === 'chat' ? 'chat-keys' : 'acp-keys'}`), common];
    const made = await action.run(() => callApi<{ data: IssuedKeyView }>(path, { method: 'POST', body }));
    if (made) onCreated(made.data);
  };

  const toggle = (scope: OrgKeyScope, on: boolean) => setScopes((all) => (on ? [...all, scope] : all.filter((s) => s !== scope)));
  return (
    <Dialog title="Create a key" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <fieldset>
          <legend>Kind</legend>
          {(Object.keys(KEY_KINDS) as KeyKind[]).map((k) => (
            <label class="check" key={k}>
              <input type="radio" name="kind" value={k} checked={kind === k} onChange={() => setKind(k)} />
              <span>
                {KEY_KINDS[k]}: <span class="muted">{KIND_HINTS[k]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <Field label="Name" hint="Optional; say where the key is used, e.g. warehouse sync.">
          {({ id, describedBy }) => (
            <input id={id} aria-describedby={describedBy} value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />
          )}
        </Field>
        {kind === 'org' ? (
          <fieldset>
            <legend>Scopes</legend>
            {ORG_KEY_SCOPES.map((s) => (
              <label class="check" key={s.scope}>
                <input type="checkbox" checked={scopes.includes(s.scope)} onChange={(e) => toggle(s.scope, e.currentTarget.checked)} />
                <span>
                  <code>{s.scope}</code> <span class="muted">{s.label}</span>
                </span>
              </label>
            ))}
          </fieldset>
        ) : (
          <Field label="App" hint={apps.length === 0 ? 'There is no app yet: create one on the Apps page first.' : undefined}>
            {({ id, describedBy }) => (
              <select id={id} aria-describedby={describedBy} value={appId} onChange={(e) => setAppId(e.currentTarget.value)}>
                {apps.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name} ({a.appNameId})
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <Field label="Expires">
          {({ id }) => (
            <select id={id} value={expiry} onChange={(e) => setExpiry(e.currentTarget.value as ExpiryChoice)}>
              {EXPIRIES.map((x) => (
                <option key={x.value} value={x.value}>
                  {x.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {expiry === 'custom' && (
          <Field label="Last day it works" hint="The key stops working at the end of that day (UTC).">
            {({ id, describedBy }) => (
              <input id={id} aria-describedby={describedBy} type="date" value={day} required onInput={(e) => setDay(e.currentTarget.value)} />
            )}
          </Field>
        )}
        {(invalid || action.error) && <p role="alert">{invalid || action.error}</p>}
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={action.busy}>
            {action.busy ? 'Creating…' : 'Create key'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
