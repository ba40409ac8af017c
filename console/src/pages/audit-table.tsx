/** A page of audit records: time, actor, action, resource, address, and the change's before and after in a disclosure. */
import { type AuditRecord, at } from './audit-views';

export function AuditTable({ records, filtered }: { readonly records: readonly AuditRecord[]; readonly filtered: boolean }) {
  return (
    <div class="table-scroll">
      <table class="audit">
        <caption>Audit records{filtered ? ' matching the filters' : ''}, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Resource</th>
            <th scope="col">Address</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <tr key={r.id}>
              <th scope="row" class="nowrap">
                {at(r.at)}
              </th>
              <td>
                {r.actor.email ?? r.actor.id}
                {r.actor.kind === 'operator' && <span class="muted"> (platform operator)</span>}
              </td>
              <td>
                <code>{r.action}</code>
              </td>
              <td>
                {r.resource.type}
                <code class="id">{r.resource.id}</code>
              </td>
              <td>{r.ip}</td>
              <td>
                <details>
                  <summary>
                    Before and after
                    <span class="visually-hidden">
                      {' '}
                      of {r.action} at {at(r.at)}
                    </span>
                  </summary>
                  <dl class="change">
                    <dt>User agent</dt>
                    <dd>{r.userAgent || 'none'}</dd>
                    <dt>Before</dt>
                    <dd>{r.before ? <pre>{JSON.stringify(r.before, null, 2)}</pre> : 'none recorded'}</dd>
                    <dt>After</dt>
                    <dd>{r.after ? <pre>{JSON.stringify(r.after, null, 2)}</pre> : 'none recorded'}</dd>
                  </dl>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
