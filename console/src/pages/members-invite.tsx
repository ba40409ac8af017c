/**
 * Inviting someone by e-mail with a role. The answer's link is shown once, in a dialog that asks
 * before closing; no mail is sent, so the inviter passes the link on themselves.
 */
import { useId, useState } from 'preact/hooks';
import { callApi, can, type OrgMembership, orgPath } from '../api-client';
import { CopyButton } from '../components/copy-button';
import { ShownOnceDialog } from '../components/shown-once-dialog';
import { Field } from '../components/field';
import { useAction } from '../use-load';
import { grantableRoles, type IssuedInvitation, type Role, shortDate } from './members-views';

interface Props {
  readonly org: OrgMembership;
  readonly onInvited: (said: string) => void;
}

export function InviteForm({ org, onInvited }: Props) {
  const denialId = useId();
  const permitted = can(org, 'invitations.manage');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('developer');
  const [days, setDays] = useState('7');
  const [issued, setIssued] = useState<IssuedInvitation | undefined>();
  const { busy, error, run } = useAction();

  const invite = async (event: Event) => {
    event.preventDefault();
    const answer = await run(() =>
      callApi<{ data: IssuedInvitation }>(orgPath(org.orgId, 'invitations'), { method: 'POST', body: { email: email.trim(), role, ttlDays: Number(days) } }),
    );
    if (!answer) return;
    setIssued(answer.data);
    setEmail('');
    onInvited(`${answer.data.email} was invited as ${answer.data.role}.`);
  };

  return (
    <form class="invite-form" onSubmit={invite} aria-describedby={permitted ? undefined : denialId}>
      {!permitted && (
        <p id={denialId} class="muted">
          Only owners and admins invite people (your role: {org.role}).
        </p>
      )}
      <fieldset class="plain-group" disabled={!permitted || busy}>
        <legend class="sr-only">Invitation</legend>
        <Field label="E-mail address" hint="They sign in with this address to accept.">
          {({ id, describedBy }) => (
            <input
              id={id}
              aria-describedby={describedBy}
              type="email"
              required
              autoComplete="off"
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Role" hint={org.role === 'owner' ? undefined : 'Only an owner invites an owner.'}>
          {({ id, describedBy }) => (
            <select id={id} aria-describedby={describedBy} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {grantableRoles(org).map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Valid for (days)" hint="From 1 to 30 days.">
          {({ id, describedBy }) => (
            <input
              id={id}
              aria-describedby={describedBy}
              type="number"
              min={1}
              max={30}
              required
              value={days}
              onInput={(e) => setDays(e.currentTarget.value)}
            />
          )}
        </Field>
        {error && <p role="alert">{error}</p>}
        <div class="actions start">
          <button type="submit" class="primary">
            {busy ? 'Inviting…' : 'Invite'}
          </button>
        </div>
      </fieldset>
      {issued && <InvitationLinkDialog invitation={issued} onClose={() => setIssued(undefined)} />}
    </form>
  );
}

function InvitationLinkDialog({ invitation, onClose }: { readonly invitation: IssuedInvitation; readonly onClose: () => void }) {
  return (
    <ShownOnceDialog
      title="Invitation link"
      warning={<strong>Close the invitation link? It is not shown again: if it is lost, revoke the invitation and invite again.</strong>}
      backLabel="Back to the link"
      closeLabel="Close, I have sent it"
      doneLabel="Done"
      onClose={onClose}
    >
      <p>
        Send this link to <strong>{invitation.email}</strong>. It is shown only now. Whoever signs in with that address and opens it joins as {invitation.role},
        until {shortDate(invitation.expiresAt)}.
      </p>
      <p>
        <code class="secret">{invitation.link}</code>
      </p>
      <div class="actions">
        <CopyButton text={invitation.link} label="Copy the link" />
      </div>
    </ShownOnceDialog>
  );
}
