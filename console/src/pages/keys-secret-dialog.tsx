/**
 * A new key's secret, shown this once: copy it, or copy a snippet that already uses it against the
 * right endpoint. Closing asks first, inside the dialog, because the secret cannot be shown again.
 */
import { type AppView, type IssuedKeyView, KEY_KINDS, ORG_KEY_SCOPES } from '../apps-views';
import { CopyButton } from '../components/copy-button';
import { ShownOnceDialog } from '../components/shown-once-dialog';
import { ACP_VERSION, CHAT_API_BASE, ORG_EXPORT_BASE } from '../api-addresses';

interface Props {
  readonly issued: IssuedKeyView;
  readonly app: AppView | undefined;
  /** What else happened, e.g. when a rotated key's predecessor stops working. */
  readonly note?: string;
  readonly onClose: () => void;
}

interface Snippet {
  readonly label: string;
  readonly copy: string;
  readonly text: string;
}

export function snippetsOf(issued: IssuedKeyView, app: AppView | undefined, origin: string): Snippet[] {
  const auth = `-H 'Authorization: Bearer ${issued.key}'`;
  if (issued.kind === 'org') {
    const first = ORG_KEY_SCOPES.find((s) => issued.scopes.includes(s.scope)) ?? ORG_KEY_SCOPES[0];
    return [
      {
        label: `curl: the Org Export API (${first.scope})`,
        copy: 'Copy the curl command',
        text: `curl ${origin}${ORG_EXPORT_BASE}/${first.path} \\\n  ${auth}`,
      },
    ];
  }
  const appId = app?.id ?? issued.appId ?? '<app id>';
  if (issued.kind === 'acp') {
    const body = JSON.stringify({ line_items: [{ product_id: '<product id>', quantity: 1 }] });
    return [
      {
        label: 'curl: start an ACP checkout session',
        copy: 'Copy the curl command',
        text: `curl -X POST ${origin}/acp/${appId}/checkout_sessions \\\n  ${auth} \\\n  -H 'API-Version: ${ACP_VERSION}' \\\n  -H "Idempotency-Key: $(uuidgen)" \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'`,
      },
    ];
  }
  const model = app?.appNameId ?? '<app name id>';
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] });
  return [
    {
      label: 'curl: a chat turn',
      copy: 'Copy the curl command',
      text: `curl ${origin}${CHAT_API_BASE}/chat/completions \\\n  ${auth} \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'`,
    },
    {
      label: 'Node, with the openai package',
      copy: 'Copy the Node code',
      text: [
        "import OpenAI from 'openai';",
        '',
        `const client = new OpenAI({ apiKey: '${issued.key}', baseURL: '${origin}${CHAT_API_BASE}' });`,
        'const reply = await client.chat.completions.create({',
        `  model: '${model}',`,
        "  messages: [{ role: 'user', content: 'Hello' }],",
        '});',
        'console.log(reply.choices[0].message.content);',
      ].join('\n'),
    },
  ];
}

export function SecretDialog({ issued, app, note, onClose }: Props) {
  const what = `${KEY_KINDS[issued.kind]}${issued.name ? ` “${issued.name}”` : ''}`;
  return (
    <ShownOnceDialog
      title={`${what}: copy it now`}
      warning={
        <>
          <strong>Close? The secret will not be shown again.</strong> Only its prefix <code>{issued.prefix}</code> stays visible; a lost key is revoked and
          replaced.
        </>
      }
      backLabel="Back to the secret"
      closeLabel="Close, I have saved it"
      doneLabel="Done"
      onClose={onClose}
    >
      <p>This is the only time the key is shown. Store it in your secret manager now.</p>
      {note && <p class="notice">{note}</p>}
      <label class="field">
        The key
        <input class="secret" readOnly value={issued.key} spellcheck={false} onFocus={(e) => e.currentTarget.select()} />
      </label>
      <CopyButton text={issued.key} label="Copy the key" />
      {snippetsOf(issued, app, location.origin).map((s) => (
        <section key={s.label} class="snippet" aria-label={s.label}>
          <h3>{s.label}</h3>
          <pre>
            <code>{s.text}</code>
          </pre>
          <CopyButton text={s.text} label={s.copy} />
        </section>
      ))}
    </ShownOnceDialog>
  );
}
