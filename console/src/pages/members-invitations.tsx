/** The invitations still waiting for an answer: who, which role, until when; each can be revoked. */
import { useState } from 'preact/hooks';
import { callApi, type OrgMembership, orgPath } from '../api-client';
import { Dialog } from '../components/dialog';
import { GuardedButton } from '../components/guarded-button';
import { useAction } from '../use-load';
import { type Invitation, shortDate } from './members-views';

interface Props {
  readonly org: OrgMembership;
  readonly invitations: readonly Invitation[];
  readonly onChanged: (said: string) => void;
}

export function PendingInvitations({ org, invitations, onChanged }: Props) {
  const [revoking, setRevoking] = useState<Invitation | undefined>();
  const { busy, error, run, clearError } = useAction();
  if (invitations.length === 0) return <p>No invitation is waiting for an answer.</p>;

  const revoke = async (inv: Invitation) => {
    if (!(await run(() => callApi(orgPath(org.orgId, `invitations/${encodeURIComponent(inv.id)}`), { method: 'DELETE' })))) return;
    setRevoking(undefined);
    onChanged(`The invitation of ${inv.email} was revoked: its link no longer works.`);
  };

  return (
    <div class="table-scroll">
      <table class="list">
        <caption>Pending invitations</caption>
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Expires</th>
            <th scope="col">Revoke</th>
          </tr>
        </thead>
        <tbody>
          {invitations.map((inv) => (
            <tr key={inv.id}>
              <th scope="row">{inv.email}</th>
              <td>{inv.role}</td>
              <td class="nowrap">{shortDate(inv.expiresAt)}</td>
              <td>
                <GuardedButton
                  org={org}
                  permission="invitations.manage"
                  reason="Only owners and admins revoke invitations"
                  refused={inv.role === 'owner' && org.role !== 'owner' ? 'Only an owner may revoke an invitation to be owner.' : undefined}
                  variant="danger"
                  onClick={() => setRevoking(inv)}
                >
                  Revoke<span class="sr-only"> the invitation of {inv.email}</span>
                </GuardedButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {revoking && (
        <Dialog
          title={`Revoke the invitation of ${revoking.email}`}
          onClose={() => {
            clearError();
            setRevoking(undefined);
          }}
        >
          <p>Its link stops working at once. To let {revoking.email} join later, invite them again.</p>
          {error && <p role="alert">{error}</p>}
          <div class="actions">
            <button type="button" onClick={() => setRevoking(undefined)}>
              Cancel
            </button>
            <button type="button" class="danger" disabled={busy} onClick={() => revoke(revoking)}>
              {busy ? 'Revoking…' : 'Revoke invitation'}
            </button>
          </div>
        </Dialog>
      )}
    </div>
  );
}
