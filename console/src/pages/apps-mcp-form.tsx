/**
 * The app's MCP connections with their header templates. Header values are write-only (they hold the
 * tool server's credentials): the console API shows only their names, and the connections are saved
 * whole, so every value is typed again when the connections are saved.
 */
import { useState } from 'preact/hooks';
import type { AppView, McpConnectionInput } from '../apps-views';
import { Field } from '../components/field';
import { useAction } from '../use-load';

interface Props {
  readonly app: AppView;
  readonly readOnlyReasonId: string | undefined;
  readonly save: (body: unknown) => Promise<unknown>;
  readonly onSaved: () => void;
}

interface HeaderRow {
  readonly name: string;
  readonly value: string;
}
interface ConnectionRow {
  readonly name: string;
  readonly url: string;
  readonly headers: readonly HeaderRow[];
}

const MAX_CONNECTIONS = 20;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;

export function McpConnectionsForm({ app, readOnlyReasonId, save, onSaved }: Props) {
  const [rows, setRows] = useState<readonly ConnectionRow[]>(() =>
    app.settings.mcpConnections.map((c) => ({ name: c.name, url: c.url, headers: c.headerNames.map((name) => ({ name, value: '' })) })),
  );
  const [invalid, setInvalid] = useState('');
  const action = useAction();
  const [said, setSaid] = useState('');
  const setRow = (i: number, change: Partial<ConnectionRow>) => setRows((all) => all.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const setHeader = (i: number, h: number, change: Partial<HeaderRow>) =>
    setRows((all) => all.map((r, j) => (j === i ? { ...r, headers: r.headers.map((x, k) => (k === h ? { ...x, ...change } : x)) } : r)));

  const submit = async () => {
    setSaid('');
    const bad = rows.flatMap((r) => r.headers).find((h) => !HEADER_NAME.test(h.name.trim()));
    const problem = bad ? `“${bad.name}” is not a header name: letters, digits and - _ . only, no spaces.` : '';
    setInvalid(problem);
    if (problem) return;
    const connections: McpConnectionInput[] = rows.map((r) => ({
      name: r.name.trim(),
      url: r.url.trim(),
      headers: Object.fromEntries(r.headers.map((h) => [h.name.trim(), h.value])),
    }));
    if ((await action.run(() => save({ settings: { mcpConnections: connections } }).then(() => true))) === true) {
      setSaid('MCP connections saved.');
      onSaved();
    }
  };

  return (
    <form
      aria-labelledby="mcp-heading"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3 id="mcp-heading">MCP connections</h3>
      <p class="muted">
        Tool servers the model may call. A header value may hold <code>{'{{session.<name>}}'}</code>, replaced by the chat request's variable of that name.
      </p>
      <p class="notice">
        Header values are write-only: they are never shown again, not even to you. Saving sends the connections whole, so type every header's value again before
        you save.
      </p>
      <fieldset class="plain-group" disabled={readOnlyReasonId !== undefined} aria-describedby={readOnlyReasonId}>
        {rows.length === 0 && <p>No MCP connections.</p>}
        {rows.map((row, i) => (
          <fieldset key={i} class="mcp-connection">
            <legend>Connection {i + 1}</legend>
            <Field label="Name">
              {({ id }) => <input id={id} value={row.name} required maxLength={64} onInput={(e) => setRow(i, { name: e.currentTarget.value })} />}
            </Field>
            <Field label="URL">
              {({ id }) => (
                <input
                  id={id}
                  type="url"
                  value={row.url}
                  required
                  maxLength={2048}
                  placeholder="https://"
                  onInput={(e) => setRow(i, { url: e.currentTarget.value })}
                />
              )}
            </Field>
            {row.headers.map((h, k) => (
              <div class="header-row" key={k}>
                <Field label={`Header ${k + 1} name`}>
                  {({ id }) => <input id={id} value={h.name} required spellcheck={false} onInput={(e) => setHeader(i, k, { name: e.currentTarget.value })} />}
                </Field>
                <Field label={`Header ${k + 1} value (write-only)`}>
                  {({ id }) => (
                    <input
                      id={id}
                      type="password"
                      autoComplete="off"
                      value={h.value}
                      required
                      maxLength={4096}
                      onInput={(e) => setHeader(i, k, { value: e.currentTarget.value })}
                    />
                  )}
                </Field>
                <button type="button" onClick={() => setRow(i, { headers: row.headers.filter((_, x) => x !== k) })}>
                  Remove header {k + 1}
                </button>
              </div>
            ))}
            <div class="actions start">
              <button type="button" onClick={() => setRow(i, { headers: [...row.headers, { name: '', value: '' }] })}>
                Add a header to connection {i + 1}
              </button>
              <button type="button" onClick={() => setRows((all) => all.filter((_, j) => j !== i))}>
                Remove connection {i + 1}
              </button>
            </div>
          </fieldset>
        ))}
        {(invalid || action.error) && <p role="alert">{invalid || action.error}</p>}
        <p role="status">{said}</p>
        <div class="actions start">
          <button type="button" disabled={rows.length >= MAX_CONNECTIONS} onClick={() => setRows((all) => [...all, { name: '', url: '', headers: [] }])}>
            Add a connection
          </button>
          <button type="submit" class="primary" disabled={action.busy}>
            {action.busy ? 'Saving…' : 'Save MCP connections'}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
