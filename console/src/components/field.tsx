/** A labelled form control with an optional hint, linked by `aria-describedby`. */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

interface Props {
  readonly label: string;
  readonly hint?: string;
  /** The control; it receives `id` and `aria-describedby` through the render function. */
  readonly children: (ids: { readonly id: string; readonly describedBy: string | undefined }) => ComponentChildren;
}

export function Field({ label, hint, children }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children({ id, describedBy: hint ? hintId : undefined })}
      {hint && (
        <small id={hintId} class="muted">
          {hint}
        </small>
      )}
    </div>
  );
}
