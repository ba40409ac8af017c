/**
 * A destructive change confirmed by typing its subject's name: the dialog says what will happen
 * (what the export's tombstone feed will show, for a deletion) and the button stays off until the
 * typed text matches.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Dialog } from './dialog';

interface Props {
  readonly title: string;
  /** What the person types to confirm, e.g. the app's name. */
  readonly confirmText: string;
  readonly actionLabel: string;
  readonly busy?: boolean;
  readonly error?: string;
  readonly onConfirm: () => void;
  readonly onClose: () => void;
  readonly children: ComponentChildren;
}

export function ConfirmDialog({ title, confirmText, actionLabel, busy, error, onConfirm, onClose, children }: Props) {
  const [typed, setTyped] = useState('');
  return (
    <Dialog title={title} onClose={onClose}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed === confirmText) onConfirm();
        }}
      >
        {children}
        <label class="field">
          <span>
            Type <strong>{confirmText}</strong> to confirm
          </span>
          <input value={typed} autoComplete="off" spellcheck={false} onInput={(e) => setTyped(e.currentTarget.value)} />
        </label>
        {error && <p role="alert">{error}</p>}
        <div class="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="danger" disabled={typed !== confirmText || busy}>
            {busy ? 'Working…' : actionLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
