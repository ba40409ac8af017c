/**
 * A page of audit records: time, actor, action, resource and address, and under each record its user
 * agent and the change's before and after in a disclosure as wide as the table.
 */
import { Fragment } from 'preact';
import { type AuditRecord, at } from './audit-views';

const COLUMNS = 5;

export function AuditTable({ records, filtered }: { readonly records: readonly AuditRecord[]; readonly filtered: boolean }) {
  return (
    <div class="table-scroll">
      <table class="list audit">
        <caption>Audit records{filtered ? ' matching the filters' : ''}, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Resource</th>
            <th scope="col">Address</th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <Fragment key={r.id}>
              <tr class="record">
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
              </tr>
              <tr class="record-details">
                <td colSpan={COLUMNS}>
                  <details>
                    <summary>
                      Details
                      <span class="sr-only">
                        {' '}
                        of {r.action} at {at(r.at)}
                      </span>
                      : user agent, before and after
                    </summary>
                    <dl class="change">
                      <div>
                        <dt>User agent</dt>
                        <dd>{r.userAgent || 'none'}</dd>
                      </div>
                      <div>
                        <dt>Before</dt>
                        <dd>{r.before ? <pre>{JSON.stringify(r.before, null, 2)}</pre> : 'none recorded'}</dd>
                      </div>
                      <div>
                        <dt>After</dt>
                        <dd>{r.after ? <pre>{JSON.stringify(r.after, null, 2)}</pre> : 'none recorded'}</dd>
                      </div>
                    </dl>
                  </details>
                </td>
              </tr>
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
