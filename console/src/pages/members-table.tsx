/**
 * The org's members: a role changed by select and save, a removal by typed confirmation. What the
 * caller may not do stays visible and disabled, with the reason linked to each control.
 */
import { useId, useState } from 'preact/hooks';
import { callApi, can, type OrgMembership, orgPath } from '../api-client';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useAction } from '../use-load';
import { grantableRoles, type Member, membershipRefusal, type Role, ROLES, shortDate } from './members-views';

interface Props {
  readonly org: OrgMembership;
  readonly me: string | null;
  readonly members: readonly Member[];
  readonly onChanged: (said: string) => void;
}

export function MembersTable({ org, me, members, onChanged }: Props) {
  const denialId = useId();
  const permitted = can(org, 'members.manage');
  const owners = members.filter((m) => m.role === 'owner').length;
  return (
    <>
      {!permitted && (
        <p id={denialId} class="muted">
          Only owners and admins change roles and remove members (your role: {org.role}).
        </p>
      )}
      <div class="table-scroll">
        <table class="list">
          <caption>Members of {org.name}</caption>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col">Remove</th>
            </tr>
          </thead>
          <tbody>
            {[...members].sort(byRoleThenEmail).map((m) => (
              <MemberRow
                key={`${m.id} ${m.role}`}
                org={org}
                member={m}
                isMe={m.email === me}
                refusal={permitted ? membershipRefusal(org, m, owners) : undefined}
                denialId={permitted ? undefined : denialId}
                onChanged={onChanged}
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** Owners first, down to viewers; by e-mail within a role. */
const byRoleThenEmail = (a: Member, b: Member): number => ROLES.indexOf(a.role) - ROLES.indexOf(b.role) || a.email.localeCompare(b.email);

interface RowProps {
  readonly org: OrgMembership;
  readonly member: Member;
  readonly isMe: boolean;
  /** Why this membership is out of the caller's reach although they manage members. */
  readonly refusal: string | undefined;
  /** The page's note saying the role may not manage members at all. */
  readonly denialId: string | undefined;
  readonly onChanged: (said: string) => void;
}

function MemberRow({ org, member, isMe, refusal, denialId, onChanged }: RowProps) {
  const reasonId = useId();
  const [role, setRole] = useState<Role>(member.role);
  const [removing, setRemoving] = useState(false);
  const save = useAction();
  const remove = useAction();
  const disabled = Boolean(denialId || refusal);
  const describedBy = denialId ?? (refusal ? reasonId : undefined);
  const path = orgPath(org.orgId, `members/${encodeURIComponent(member.id)}`);
  const grantable = grantableRoles(org);

  const saveRole = async () => {
    const done = await save.run(() => callApi(path, { method: 'PATCH', body: { role } }));
    if (done) onChanged(`${member.email} is now ${role}.`);
  };
  const confirmRemove = async () => {
    const removed = await remove.run(async () => {
      await callApi(path, { method: 'DELETE' });
      return true;
    });
    if (!removed) return;
    setRemoving(false);
    onChanged(`${member.email} was removed from ${org.name}.`);
  };

  return (
    <tr>
      <th scope="row">
        {member.email}
        {isMe && <span class="muted"> (you)</span>}
      </th>
      <td>
        <div class="member-role">
          <select
            aria-label={`Role of ${member.email}`}
            aria-describedby={describedBy}
            value={role}
            disabled={disabled}
            onChange={(e) => setRole(e.currentTarget.value as Role)}
          >
            {ROLES.map((r) => (
              <option key={r} value={r} disabled={r !== member.role && !grantable.includes(r)}>
                {r}
              </option>
            ))}
          </select>
          <button type="button" disabled={disabled || role === member.role || save.busy} aria-describedby={describedBy} onClick={saveRole}>
            {save.busy ? 'Saving…' : 'Save'}
            <span class="sr-only"> role of {member.email}</span>
          </button>
        </div>
        {refusal && (
          <small id={reasonId} class="muted">
            {refusal}
          </small>
        )}
        {save.error && <p role="alert">{save.error}</p>}
      </td>
      <td class="nowrap">{shortDate(member.joinedAt)}</td>
      <td>
        <button type="button" class="danger" disabled={disabled} aria-describedby={describedBy} onClick={() => setRemoving(true)}>
          Remove<span class="sr-only"> {member.email}</span>
        </button>
        {removing && (
          <ConfirmDialog
            title={`Remove ${member.email}`}
            confirmText={member.email}
            actionLabel="Remove member"
            busy={remove.busy}
            error={remove.error}
            onConfirm={confirmRemove}
            onClose={() => {
              remove.clearError();
              setRemoving(false);
            }}
          >
            <p>
              {member.email} loses access to {org.name} at once. To let them back in, invite them again.
            </p>
          </ConfirmDialog>
        )}
      </td>
    </tr>
  );
}
