/**
 * The overview's watch list: keys that expire within 14 days (every role reads keys by prefix) and the
 * latest audit records (roles with `audit.read`; others are told who can see them).
 */
import { can, type OrgMembership, orgPath } from '../api-client';
import { LoadView } from '../components/load-view';
import { utcTime } from '../sessions-views';
import { useLoadPage } from '../use-load';

interface KeyView {
  readonly id: string;
  readonly kind: 'org' | 'chat' | 'acp';
  readonly prefix: string;
  readonly name: string | null;
  readonly expiresAt: string | null;
  readonly state: 'active' | 'expired' | 'revoked';
}

interface AuditRecord {
  readonly id: string;
  readonly at: string;
  readonly actor: { readonly kind: 'member' | 'operator'; readonly email: string | null };
  readonly action: string;
  readonly resource: { readonly type: string; readonly id: string };
}

const SOON_MS = 14 * 24 * 3600 * 1000;
const KEYS_READ = 100;
const RECENT = 5;

const link = (navigate: (href: string) => void, href: string) => (e: MouseEvent) => {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(href);
};

export function ExpiringKeys({ org, navigate }: { readonly org: OrgMembership; readonly navigate: (href: string) => void }) {
  const { state } = useLoadPage<KeyView>(can(org, 'keys.read') ? orgPath(org.orgId, 'keys') : undefined, { limit: KEYS_READ });
  return (
    <section aria-labelledby="expiring-heading">
      <h2 id="expiring-heading">Keys that expire soon</h2>
      <LoadView state={state} refused={`Your role (${org.role}) cannot see the org’s keys.`}>
        {({ items }) => {
          const now = Date.now();
          const soon = items
            .filter((k) => k.state === 'active' && k.expiresAt !== null && Date.parse(k.expiresAt) - now <= SOON_MS)
            .sort((a, b) => a.expiresAt!.localeCompare(b.expiresAt!));
          if (soon.length === 0) return <p>No active key expires in the next 14 days.</p>;
          return (
            <div class="table-scroll">
              <table>
                <caption>Keys that expire within 14 days, soonest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Key</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Expires</th>
                  </tr>
                </thead>
                <tbody>
                  {soon.map((k) => (
                    <tr key={k.id}>
                      <th scope="row">
                        <code>{k.prefix}</code> {k.name ?? ''}
                      </th>
                      <td>{k.kind}</td>
                      <td>
                        <time dateTime={k.expiresAt!}>{utcTime(k.expiresAt!)}</time>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p>
                <a href="/console/keys" onClick={link(navigate, '/console/keys')}>
                  Rotate them on the Keys page
                </a>
              </p>
            </div>
          );
        }}
      </LoadView>
    </section>
  );
}

export function RecentActivity({ org }: { readonly org: OrgMembership }) {
  const { state } = useLoadPage<AuditRecord>(can(org, 'audit.read') ? orgPath(org.orgId, 'audit-log') : undefined, { limit: RECENT });
  return (
    <section aria-labelledby="activity-heading">
      <h2 id="activity-heading">Recent activity</h2>
      <LoadView state={state} refused={`Your role (${org.role}) cannot see the audit log; owners and admins can.`}>
        {({ items }) =>
          items.length === 0 ? (
            <p>Nothing recorded yet.</p>
          ) : (
            <div class="table-scroll">
              <table>
                <caption>Latest changes in the audit log, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">Resource</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((r) => (
                    <tr key={r.id}>
                      <th scope="row">
                        <time dateTime={r.at}>{utcTime(r.at)}</time>
                      </th>
                      <td>{r.actor.kind === 'operator' ? 'Operator' : (r.actor.email ?? 'A member')}</td>
                      <td>{r.action}</td>
                      <td>
                        {r.resource.type} <code>{r.resource.id.slice(0, 8)}</code>
                      </td>
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
