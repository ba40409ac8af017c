/**
 * A dialog holding something shown once (a key's secret, a signing secret, an invitation link): every
 * way out (Escape, ×, the done button) first asks, inside the dialog, whether it was kept, with the
 * focus on "Back" so a second Escape or Enter by accident loses nothing.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Dialog } from './dialog';

interface Props {
  readonly title: string;
  /** What is lost by closing, e.g. "Close? The secret will not be shown again." */
  readonly warning: ComponentChildren;
  readonly backLabel: string;
  readonly closeLabel: string;
  /** The button that starts closing (it asks first). */
  readonly doneLabel: string;
  readonly onClose: () => void;
  readonly children: ComponentChildren;
}

export function ShownOnceDialog({ title, warning, backLabel, closeLabel, doneLabel, onClose, children }: Props) {
  const [confirming, setConfirming] = useState(false);
  const back = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) back.current?.focus();
  }, [confirming]);
  const guardClose = () => {
    if (confirming) return true;
    setConfirming(true);
    return false;
  };
  return (
    <Dialog title={title} onClose={onClose} guardClose={guardClose}>
      {confirming ? (
        <div class="confirm-step">
          <p role="alert">{warning}</p>
          <div class="actions">
            <button type="button" ref={back} onClick={() => setConfirming(false)}>
              {backLabel}
            </button>
            <button type="button" class="primary" onClick={onClose}>
              {closeLabel}
            </button>
          </div>
        </div>
      ) : (
        <>
          {children}
          <div class="actions">
            <button type="button" class="primary" onClick={() => guardClose()}>
              {doneLabel}
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
