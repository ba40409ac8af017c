/**
 * Accepting an invitation (the link `/console/invitations#token=…`), for a signed-in person whether or
 * not they are in an org yet: the invitation names their verified address; accepting makes them a
 * member with its role, then the console opens that org.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, callApi, type SessionView } from '../api-client';
import { CHOSEN_ORG_KEY, type OrgFreePageProps } from '../pages';
import { useAction } from '../use-load';
import { forgetInvitationToken, invitationToken } from './invitation-token';

interface Membership {
  readonly orgId: string;
  readonly email: string;
  readonly role: string;
}

export function InvitationAcceptPage({ session }: OrgFreePageProps) {
  const [token, setToken] = useState(invitationToken);
  const [joined, setJoined] = useState<{ readonly orgId: string; readonly name: string; readonly role: string } | undefined>();
  const [refusal, setRefusal] = useState<string | undefined>();
  const { busy, run } = useAction();
  // Another link opened in this tab changes only the fragment: no new page load.
  useEffect(() => {
    const onLink = () => {
      setToken(invitationToken());
      setRefusal(undefined);
      setJoined(undefined);
    };
    addEventListener('hashchange', onLink);
    return () => removeEventListener('hashchange', onLink);
  }, []);

  const accept = () =>
    run(async () => {
      setRefusal(undefined);
      try {
        const member = (await callApi<{ data: Membership }>('/console/v1/invitations/accept', { method: 'POST', body: { token } })).data;
        forgetInvitationToken();
        const now = await callApi<SessionView>('/console/auth/session').catch(() => undefined);
        setJoined({ orgId: member.orgId, role: member.role, name: now?.orgs.find((o) => o.orgId === member.orgId)?.name ?? 'the organisation' });
      } catch (err) {
        // An invitation gone for good (unknown, expired, used or revoked) is not kept for a later try in this tab.
        if (err instanceof ApiError && (err.status === 404 || err.status === 409 || /expired/i.test(err.message))) forgetInvitationToken();
        setRefusal(invitationAdvice(err));
      }
    });

  const open = (orgId: string) => {
    sessionStorage.setItem(CHOSEN_ORG_KEY, orgId);
    location.assign('/console/');
  };

  if (!token && !joined)
    return <p role="alert">This link holds no invitation. Open the whole link you were sent, or ask the person who invited you to send it again.</p>;
  return (
    <section aria-labelledby="invitation-heading">
      <h2 id="invitation-heading">Your invitation</h2>
      {joined ? (
        <>
          <p role="status">
            You joined {joined.name} as {joined.role}.
          </p>
          <p>
            <button type="button" class="primary" onClick={() => open(joined.orgId)}>
              Open {joined.name}
            </button>
          </p>
        </>
      ) : (
        <>
          <p>
            You are signed in as <strong>{session.person.email ?? 'an unnamed person'}</strong>. Accepting makes you a member of the organisation that invited
            this address, with the role it chose; the invitation then stops working.
          </p>
          {refusal && <p role="alert">{refusal}</p>}
          <p>
            <button type="button" class="primary" disabled={busy} onClick={accept}>
              {busy ? 'Accepting…' : 'Accept the invitation'}
            </button>
          </p>
        </>
      )}
    </section>
  );
}

/** The accept route's refusals, each with what to do about it (its 401 may be the invitation's expiry, not the session's). */
function invitationAdvice(err: unknown): string {
  if (!(err instanceof ApiError)) return 'Something went wrong in the page. Reload it and try again.';
  const said = err.message;
  if (err.status === 401 && /expired/i.test(err.message)) return `${said}. The person who invited you can invite you again from the console's Members page.`;
  if (err.status === 401) return 'Your session has ended. Reload the page and sign in again: the invitation waits in this tab.';
  if (err.status === 403)
    return `${said}. Sign out, then sign in with the e-mail address the invitation was sent to, or ask for an invitation to the address you use.`;
  if (err.status === 404)
    return `${said}: the link is incomplete, or the invitation was revoked. Check that you opened the whole link, or ask the person who invited you for a new invitation.`;
  if (err.status === 409)
    return `${said}. Ask the person who invited you for a new invitation if you still need one; if you are a member already, open the console.`;
  return err.advice;
}
