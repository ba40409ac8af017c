/**
 * Deleting a session, or its consumer with every session of theirs, behind a typed confirmation that
 * says what the org export's deletion feed will show. Roles without `conversations.delete` see the
 * buttons disabled with the reason.
 */
import { useState } from 'preact/hooks';
import { callApi, type OrgMembership, orgPath } from '../api-client';
import { ConfirmDialog } from '../components/confirm-dialog';
import { GuardedButton } from '../components/guarded-button';
import { type ConsoleSession, forgetSession, sessionName, type Tombstone } from '../sessions-views';
import { useAction } from '../use-load';

interface Props {
  readonly org: OrgMembership;
  readonly session: ConsoleSession;
  /** Called with what happened, once the deletion is done. */
  readonly onDeleted: (said: string) => void;
}

const REASON = 'Only owners and admins delete sessions and consumers';

export function SessionDeletion({ org, session, onDeleted }: Props) {
  const [asking, setAsking] = useState<'session' | 'consumer'>();
  const action = useAction();
  const close = () => {
    setAsking(undefined);
    action.clearError();
  };
  const remove = async (what: 'session' | 'consumer') => {
    const path = what === 'session' ? `sessions/${encodeURIComponent(session.id)}` : `consumers/${encodeURIComponent(session.consumerId!)}`;
    const answer = await action.run(() => callApi<{ data: { tombstone: Tombstone } }>(orgPath(org.orgId, path), { method: 'DELETE' }));
    if (!answer) return;
    forgetSession(session.id);
    const { cause, resourceId } = answer.data.tombstone;
    onDeleted(
      what === 'session'
        ? `Deleted the session ${sessionName(session)}. The org export’s deletion feed shows a session tombstone for ${resourceId} with cause ${cause}.`
        : `Deleted the consumer ${session.consumerEmail ?? resourceId} and every session of theirs. The org export’s deletion feed shows a tombstone for each session and one for the consumer, with cause ${cause}.`,
    );
  };
  const consumerName = session.consumerEmail ?? 'the consumer';
  return (
    <section aria-labelledby="delete-heading">
      <h3 id="delete-heading">Delete</h3>
      <div class="delete-actions">
        <GuardedButton org={org} permission="conversations.delete" reason={REASON} variant="danger" onClick={() => setAsking('session')}>
          Delete this session
        </GuardedButton>
        {session.consumerId ? (
          <GuardedButton org={org} permission="conversations.delete" reason={REASON} variant="danger" onClick={() => setAsking('consumer')}>
            Delete the consumer and all their sessions
          </GuardedButton>
        ) : (
          <p class="muted">This session has no consumer: deleting the session is all there is to delete.</p>
        )}
      </div>
      {asking === 'session' && (
        <ConfirmDialog
          title="Delete this session?"
          confirmText="delete session"
          actionLabel="Delete the session"
          busy={action.busy}
          error={action.error}
          onConfirm={() => remove('session')}
          onClose={close}
        >
          <p>The session {sessionName(session)} and all its messages are removed for good.</p>
          <p>
            The org export’s deletion feed (<code>GET /api/v1/org/tombstones</code>) will show a <strong>session</strong> tombstone for{' '}
            <code>{session.id}</code> with cause <code>consumer_deleted</code>, so a warehouse copy drops it too. The tombstone holds no message, title or
            e-mail.
          </p>
          <p role="status">{action.busy ? 'Deleting the session and its messages…' : ''}</p>
        </ConfirmDialog>
      )}
      {asking === 'consumer' && (
        <ConfirmDialog
          title="Delete this consumer?"
          confirmText={session.consumerEmail ?? 'delete consumer'}
          actionLabel="Delete the consumer"
          busy={action.busy}
          error={action.error}
          onConfirm={() => remove('consumer')}
          onClose={close}
        >
          <p>
            Every session of {consumerName} in this app is removed with its messages, then {consumerName} themselves. This cannot be undone.
          </p>
          <p>
            The org export’s deletion feed (<code>GET /api/v1/org/tombstones</code>) will show one <strong>session</strong> tombstone per session and a{' '}
            <strong>consumer</strong> tombstone for <code>{session.consumerId}</code>, each with cause <code>consumer_deleted</code>. No tombstone holds a
            message, title or e-mail.
          </p>
          <p role="status">{action.busy ? `Deleting every session of ${consumerName}, then the consumer… this can take a moment.` : ''}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
