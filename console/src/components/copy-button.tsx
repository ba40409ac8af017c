/** Copies a text to the clipboard and says so (in a live region), or says how to copy by hand. */
import { useState } from 'preact/hooks';

export function CopyButton({ text, label = 'Copy' }: { readonly text: string; readonly label?: string }) {
  const [said, setSaid] = useState('');
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setSaid('Copied'),
      () => setSaid('Could not copy: select the text and copy it by hand'),
    );
  return (
    <span class="copy">
      <button type="button" onClick={copy}>
        {label}
      </button>
      <span role="status" class="muted">
        {said}
      </span>
    </span>
  );
}
