/**
 * The invitation's token travels in the link's fragment (`/console/invitations#token=…`), which the
 * browser never sends to a server, so it is lost on the sign-in's redirects: it is kept in this tab's
 * sessionStorage until the invitation is accepted, and taken out of the address bar.
 */
const KEY = 'console.invitationToken';

export const INVITATION_PATH = '/console/invitations';

/** The token of the link opened in this tab (from the fragment, else the one kept), kept for the sign-in. */
export function invitationToken(): string | undefined {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get('token') ?? undefined;
  if (fromLink) {
    sessionStorage.setItem(KEY, fromLink);
    history.replaceState(history.state, '', location.pathname);
  }
  return fromLink ?? sessionStorage.getItem(KEY) ?? undefined;
}

export const forgetInvitationToken = (): void => sessionStorage.removeItem(KEY);
