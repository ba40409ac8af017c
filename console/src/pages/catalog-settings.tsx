/**
 * An app's checkout settings besides its products: the ACP keys agents call its checkout with (made on
 * the Keys page), and the policy links and tax rate every checkout session carries (the app's settings).
 */
import { useState } from 'preact/hooks';
import { callApi, can, orgPath, type OrgMembership } from '../api-client';
import { type AcpSettingsView, type AppView, type KeyView, when } from '../catalog-views';
import { Field } from '../components/field';
import { LoadView } from '../components/load-view';
import { CONSOLE_BASE } from '../pages';
import { useAction, useLoadPage } from '../use-load';

export function CatalogKeys({ org, appId, navigate }: { readonly org: OrgMembership; readonly appId: string; readonly navigate: (href: string) => void }) {
  const keys = useLoadPage<KeyView>(can(org, 'keys.read') ? orgPath(org.orgId, 'keys') : undefined, { appId, kind: 'acp', limit: 100 });
  return (
    <section aria-labelledby="acp-keys-heading">
      <h2 id="acp-keys-heading">ACP keys</h2>
      <p>
        Agents call this app’s checkout with an ACP key.{' '}
        <a
          href={`${CONSOLE_BASE}keys`}
          onClick={(e) => {
            e.preventDefault();
            navigate(`${CONSOLE_BASE}keys`);
          }}
        >
          Create or revoke ACP keys on the Keys page
        </a>
        .
      </p>
      <LoadView state={keys.state} refused={`Your role (${org.role}) cannot see keys.`}>
        {({ items }) =>
          items.length === 0 ? (
            <p>The app has no ACP key: agents cannot check out yet.</p>
          ) : (
            <div class="table-scroll">
              <table>
                <caption>ACP keys of the app</caption>
                <thead>
                  <tr>
                    <th scope="col">Key</th>
                    <th scope="col">Name</th>
                    <th scope="col">State</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((k) => (
                    <tr key={k.id}>
                      <th scope="row">
                        <code>{k.prefix}…</code>
                      </th>
                      <td>{k.name ?? '—'}</td>
                      <td>{k.state}</td>
                      <td>{when(k.createdAt)}</td>
                      <td>{k.lastUsedAt ? when(k.lastUsedAt) : 'Never'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </LoadView>
    </section>
  );
}

const NO_ACP: AcpSettingsView = { termsOfUseUrl: null, privacyPolicyUrl: null, returnPolicyUrl: null, taxRateBps: 0 };
const LINKS = [
  ['termsOfUseUrl', 'Terms of use'],
  ['privacyPolicyUrl', 'Privacy policy'],
  ['returnPolicyUrl', 'Return policy'],
] as const;

/** "8.25" for 825 basis points, and back; undefined for what is not a rate of 0 to 100 with at most two decimals. */
const percentOf = (bps: number) => (bps / 100).toFixed(2).replace(/\.?0+$/, '');
const bpsOf = (text: string) => (/^\d{1,3}(\.\d{1,2})?$/.test(text.trim()) ? Math.round(Number(text) * 100) : undefined);

export function CatalogPolicies({ org, app, reloadApps }: { readonly org: OrgMembership; readonly app: AppView; readonly reloadApps: () => void }) {
  const acp = app.settings.acp ?? NO_ACP;
  const allowed = can(org, 'apps.manage');
  const [links, setLinks] = useState<Record<string, string>>(Object.fromEntries(LINKS.map(([k]) => [k, acp[k] ?? ''])));
  const [rate, setRate] = useState(percentOf(acp.taxRateBps));
  const [problem, setProblem] = useState('');
  const [said, setSaid] = useState('');
  const save = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const taxRateBps = bpsOf(rate);
    if (taxRateBps === undefined || taxRateBps > 10_000)
      return setProblem('The tax rate must be a percentage from 0 to 100, with at most two decimals (8.25).');
    setProblem('');
    const body = { settings: { acp: { ...Object.fromEntries(LINKS.map(([k]) => [k, links[k]?.trim() || null])), taxRateBps } } };
    const answer = await save.run(() => callApi(orgPath(org.orgId, `apps/${encodeURIComponent(app.id)}`), { method: 'PATCH', body }));
    if (answer) {
      setSaid(`Policies and tax saved: new checkout sessions add ${percentOf(taxRateBps)}% tax and show the links given.`);
      reloadApps();
    }
  };
  return (
    <section aria-labelledby="policies-heading">
      <h2 id="policies-heading">Policies and tax</h2>
      <p class="muted">Every checkout session shows these links to the buyer and adds the tax on top of the prices.</p>
      <form onSubmit={submit}>
        <fieldset disabled={!allowed} class="plain-fieldset">
          <legend class="sr-only">Policy links and tax rate</legend>
          {LINKS.map(([key, label]) => (
            <Field key={key} label={`${label} URL`} hint="An https address, or empty for none.">
              {({ id, describedBy }) => (
                <input
                  id={id}
                  type="url"
                  aria-describedby={describedBy}
                  value={links[key]}
                  onInput={(e) => {
                    const value = e.currentTarget.value;
                    setLinks((l) => ({ ...l, [key]: value }));
                  }}
                />
              )}
            </Field>
          ))}
          <Field label="Tax rate (%)" hint="Added on top of prices, e.g. 8.25; 0 for none.">
            {({ id, describedBy }) => (
              <input id={id} aria-describedby={describedBy} inputMode="decimal" value={rate} onInput={(e) => setRate(e.currentTarget.value)} />
            )}
          </Field>
          <button type="submit" class="primary" disabled={save.busy} aria-describedby={allowed ? undefined : 'policies-refused'}>
            {save.busy ? 'Saving…' : 'Save policies and tax'}
          </button>
        </fieldset>
        {!allowed && (
          <small id="policies-refused" class="muted">
            Only owners, admins and developers change an app’s settings (your role: {org.role}).
          </small>
        )}
      </form>
      {(problem || save.error) && <p role="alert">{problem || save.error}</p>}
      <p role="status">{said}</p>
    </section>
  );
}
