/**
 * The org's members and invitations: who is in, with which role, changing a role or removing someone,
 * inviting by e-mail (the link shown once) and revoking what is pending. Every role sees the members;
 * what a role may not change stays visible and disabled, with the reason.
 */
import { useState } from 'preact/hooks';
import { can, orgPath } from '../api-client';
import { LoadView } from '../components/load-view';
import type { PageProps } from '../pages';
import { useLoad } from '../use-load';
import { PendingInvitations } from './members-invitations';
import { InviteForm } from './members-invite';
import { MembersTable } from './members-table';
import type { Invitation, Member } from './members-views';

export function MembersPage({ org, session }: PageProps) {
  const members = useLoad<Member[]>(orgPath(org.orgId, 'members'));
  const invitations = useLoad<Invitation[]>(can(org, 'invitations.manage') ? orgPath(org.orgId, 'invitations') : undefined);
  const [said, setSaid] = useState('');
  const changed = (text: string) => {
    setSaid(text);
    members.reload();
    invitations.reload();
  };
  return (
    <>
      <p role="status">{said}</p>
      <section aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        <LoadView state={members.state}>{(list) => <MembersTable org={org} me={session.person.email} members={list} onChanged={changed} />}</LoadView>
      </section>
      <section aria-labelledby="invite-heading">
        <h2 id="invite-heading">Invite someone</h2>
        <InviteForm org={org} onInvited={changed} />
      </section>
      <section aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">Pending invitations</h2>
        <LoadView state={invitations.state} refused={`Your role (${org.role}) cannot see invitations; an owner or admin can.`}>
          {(list) => <PendingInvitations org={org} invitations={list} onChanged={changed} />}
        </LoadView>
      </section>
    </>
  );
}
