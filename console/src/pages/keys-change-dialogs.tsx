/**
 * Revoking a key (asked first: it cannot be undone) and rotating one: a new key now, the old one
 * revoked now or after a grace period so clients can switch.
 */
import { useState } from 'preact/hooks';
import { callApi, orgPath } from '../api-client';
import { KEY_KINDS, type KeyView, type RotatedKeyView, shortTime } from '../apps-views';
import { Dialog } from '../components/dialog';
import { useAction } from '../use-load';

interface Props<T> {
  readonly orgId: string;
  readonly target: KeyView;
  readonly onDone: (answer: T) => void;
  readonly onClose: () => void;
}

const keyPath = (orgId: string, key: KeyView, rest = '') => orgPath(orgId, `keys/${encodeURIComponent(key.id)}${rest}`);
const named = (key: KeyView) => `${KEY_KINDS[key.kind].toLowerCase()} ${key.prefix}${key.name ? ` (${key.name})` : ''}`;

export function RevokeKeyDialog({ orgId, target, onDone, onClose }: Props<KeyView>) {
  const action = useAction();
  const revoke = async () => {
    const answer = await action.run(() => callApi<{ data: KeyView }>(keyPath(orgId, target), { method: 'DELETE' }));
    if (answer) onDone(answer.data);
  };
  return (
    <Dialog title={`Revoke ${named(target)}?`} onClose={onClose}>
      <p>Every request with this key is refused from now on. This cannot be undone: a client that still uses it needs a new key.</p>
      {action.error && <p role="alert">{action.error}</p>}
      <div class="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" class="danger" disabled={action.busy} onClick={() => void revoke()}>
          {action.busy ? 'Revoking…' : 'Revoke key'}
        </button>
      </div>
    </Dialog>
  );
}

const GRACES = [
  { seconds: 0, label: 'Now' },
  { seconds: 3600, label: 'In 1 hour' },
  { seconds: 86_400, label: 'In 24 hours (the longest)' },
] as const;

/** What happens to the old key, said beside the new secret. */
export function graceNote(previous: KeyView): string {
  if (previous.state !== 'active') return `The old key ${previous.prefix} stopped working now.`;
  return `The old key ${previous.prefix} keeps working until ${shortTime(previous.expiresAt)} (the grace period), then stops: switch your clients before then.`;
}

export function RotateKeyDialog({ orgId, target, onDone, onClose }: Props<RotatedKeyView>) {
  const [grace, setGrace] = useState<number>(3600);
  const action = useAction();
  const rotate = async () => {
    const answer = await action.run(() =>
      callApi<{ data: RotatedKeyView }>(keyPath(orgId, target, '/rotate'), { method: 'POST', body: { graceSeconds: grace } }),
    );
    if (answer) onDone(answer.data);
  };
  return (
    <Dialog title={`Rotate ${named(target)}`} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void rotate();
        }}
      >
        <p>A new key with the same kind, name, scopes, app and expiry is made and shown once. The old key stops working:</p>
        <fieldset>
          <legend>When the old key stops working</legend>
          {GRACES.map((g) => (
            <label class="check" key={g.seconds}>
              <input type="radio" name="grace" checked={grace === g.seconds} onChange={() => setGrace(g.seconds)} />
              {g.label}
            </label>
          ))}
        </fieldset>
        {action.error && <p role="alert">{action.error}</p>}
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={action.busy}>
            {action.busy ? 'Rotating…' : 'Rotate key'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
