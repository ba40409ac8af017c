/**
 * The app's order-event receiver: the agent platform's URL that every order change is posted to, signed
 * with a secret. The agent platform usually issues the secret; without one the platform makes one and
 * shows it once, in a dialog that asks before it closes.
 */
import { useState } from 'preact/hooks';
import { callApi, can, type OrgMembership } from '../api-client';
import { appPath, type OrderWebhookView, when } from '../catalog-views';
import { CopyButton } from '../components/copy-button';
import { ShownOnceDialog } from '../components/shown-once-dialog';
import { Field } from '../components/field';
import { GuardedButton } from '../components/guarded-button';
import { useAction, useLoad } from '../use-load';

const REASON = 'Only owners and admins change where order events go';

export function CatalogReceiver({ org, appId }: { readonly org: OrgMembership; readonly appId: string }) {
  const path = appPath(org.orgId, appId, 'acp/order-webhook');
  const receiver = useLoad<OrderWebhookView | null>(path);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [shown, setShown] = useState<string | undefined>();
  const [said, setSaid] = useState('');
  const change = useAction();
  const state = receiver.state;
  const current = state?.kind === 'ready' ? (state.value ?? undefined) : undefined;
  const failed = state?.kind === 'failed' ? state.message : undefined;

  const save = async (e: Event) => {
    e.preventDefault();
    const body = secret.trim() ? { url: url.trim(), secret: secret.trim() } : { url: url.trim() };
    const answer = await change.run(() => callApi<{ data: OrderWebhookView }>(path, { method: 'PUT', body }));
    if (!answer) return;
    setSaid(`Order events now go to ${answer.data.url}.`);
    setUrl('');
    setSecret('');
    if (answer.data.secret) setShown(answer.data.secret);
    receiver.reload();
  };
  const remove = async () => {
    const answer = await change.run(() => callApi(path, { method: 'DELETE' }).then(() => true));
    if (!answer) return;
    setSaid('The receiver is removed: order events are no longer sent.');
    receiver.reload();
  };
  return (
    <section aria-labelledby="receiver-heading">
      <h2 id="receiver-heading">Order-event receiver</h2>
      {state?.kind === 'loading' ? (
        <p role="status">Loading…</p>
      ) : failed ? (
        <p role="alert">{failed}</p>
      ) : current ? (
        <>
          <dl class="facts">
            <dt>Receiver</dt>
            <dd>
              <code>{current.url}</code>
            </dd>
            <dt>Set</dt>
            <dd>{when(current.updatedAt)}</dd>
          </dl>
          <GuardedButton org={org} permission="orders.manage" reason={REASON} variant="danger" busy={change.busy} onClick={remove}>
            Remove the receiver
          </GuardedButton>
        </>
      ) : (
        <p>No receiver: order changes are not sent to the buyer’s agent platform.</p>
      )}
      <form onSubmit={save}>
        <fieldset disabled={!can(org, 'orders.manage')} class="plain-fieldset">
          <legend class="sr-only">Set the order-event receiver</legend>
          <Field label={current ? 'New receiver URL' : 'Receiver URL'} hint="The agent platform’s https address for order events.">
            {({ id, describedBy }) => (
              <input id={id} type="url" required aria-describedby={describedBy} value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
            )}
          </Field>
          <Field label="Secret (optional)" hint="The signing secret the agent platform gave you; leave empty and the platform makes one, shown once.">
            {({ id, describedBy }) => (
              <input
                id={id}
                type="password"
                autoComplete="off"
                aria-describedby={describedBy}
                value={secret}
                onInput={(e) => setSecret(e.currentTarget.value)}
              />
            )}
          </Field>
        </fieldset>
        <GuardedButton org={org} permission="orders.manage" reason={REASON} type="submit" variant="primary" busy={change.busy}>
          {change.busy ? 'Saving…' : current ? 'Replace the receiver' : 'Set the receiver'}
        </GuardedButton>
      </form>
      {change.error && <p role="alert">{change.error}</p>}
      <p role="status">{said}</p>
      {shown && <SecretDialog secret={shown} onClose={() => setShown(undefined)} />}
    </section>
  );
}

function SecretDialog({ secret, onClose }: { readonly secret: string; readonly onClose: () => void }) {
  return (
    <ShownOnceDialog
      title="The receiver’s signing secret"
      warning={<strong>Close? The secret will not be shown again: a lost one is replaced by setting the receiver again.</strong>}
      backLabel="Back to the secret"
      closeLabel="Close, I have kept it"
      doneLabel="I have kept it"
      onClose={onClose}
    >
      <p>Give this secret to the agent platform: it checks the signature of every order event with it. It is shown only now.</p>
      <pre>
        <code>{secret}</code>
      </pre>
      <CopyButton text={secret} label="Copy the secret" />
    </ShownOnceDialog>
  );
}
