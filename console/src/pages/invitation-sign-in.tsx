/**
 * An invitation link opened by someone not signed in: what the link is for and a sign-in that comes
 * back to it (the token waits in this tab meanwhile). Accepting needs the person's verified address.
 */
import { useState } from 'preact/hooks';
import { INVITATION_PATH, invitationToken } from './invitation-token';

export function InvitationSignIn() {
  const [token] = useState(invitationToken);
  return (
    <main class="centred">
      <h1>Join an organisation</h1>
      {token ? (
        <>
          <p>
            This link invites you to an organisation on the Application Platform console, with the role the person who invited you chose. Sign in with the
            e-mail address the invitation was sent to; you accept it on the next page.
          </p>
          <p>
            <a class="button" href={`/console/auth/login?return=${INVITATION_PATH}`}>
              Sign in to accept
            </a>
          </p>
        </>
      ) : (
        <p role="alert">This link holds no invitation. Open the whole link you were sent, or ask the person who invited you to send it again.</p>
      )}
    </main>
  );
}
