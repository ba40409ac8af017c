/** Shown when no one is signed in: the backend's login sends the browser to the issuer and back. */
export function SignInPage() {
  return (
    <main class="centred">
      <h1>Application Platform console</h1>
      <p>Sign in to manage your organisation's apps, keys, usage and members.</p>
      <p>
        <a class="button" href="/console/auth/login?return=/console/">
          Sign in
        </a>
      </p>
    </main>
  );
}
