/**
 * A modal dialog on the native <dialog> (focus kept inside, Escape closes, the page behind inert).
 * `guardClose` asks before closing, for a dialog whose content is shown once (a new key's secret).
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

interface Props {
  readonly title: string;
  readonly onClose: () => void;
  /** Asked before Escape or the close button closes the dialog; closing goes on only when it answers true. */
  readonly guardClose?: () => boolean;
  readonly children: ComponentChildren;
}

export function Dialog({ title, onClose, guardClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  const tryClose = () => {
    if (!guardClose || guardClose()) onClose();
  };
  return (
    <dialog
      ref={ref}
      class="dialog"
      aria-labelledby={headingId}
      onCancel={(e) => {
        e.preventDefault();
        tryClose();
      }}
    >
      <header class="dialog-header">
        <h2 id={headingId}>{title}</h2>
        <button type="button" class="plain" aria-label="Close" onClick={tryClose}>
          ×
        </button>
      </header>
      {children}
    </dialog>
  );
}
