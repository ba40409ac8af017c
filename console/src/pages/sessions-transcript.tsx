/**
 * One session: its metadata, then its messages in order with their roles and tool markers. An app under
 * Zero Data Retention keeps no messages, and a role without `transcripts.read` never asks for them (the
 * API refuses it): both see the metadata with a sentence saying why.
 */
import { can, orgPath } from '../api-client';
import { LoadView } from '../components/load-view';
import type { PageProps } from '../pages';
import { type ConsoleMessage, type ConsoleSession, shownSession, type Transcript, type ToolMarker, utcTime } from '../sessions-views';
import { useLoad } from '../use-load';
import { SessionDeletion } from './sessions-delete';
import { useAppNames } from './usage-app-names';

interface Props extends PageProps {
  readonly sessionId: string;
  readonly onDeleted: (said: string) => void;
}

export function SessionTranscript({ org, sessionId, navigate, onDeleted }: Props) {
  const mayRead = can(org, 'transcripts.read');
  const { state } = useLoad<Transcript>(mayRead ? orgPath(org.orgId, `sessions/${encodeURIComponent(sessionId)}`) : undefined);
  const { names } = useAppNames(org.orgId);
  const known = shownSession(sessionId);
  const back = (
    <p>
      <a
        href="/console/sessions"
        onClick={(e) => {
          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
          e.preventDefault();
          navigate('/console/sessions');
        }}
      >
        ← All sessions
      </a>
    </p>
  );
  if (!mayRead)
    return (
      <>
        {back}
        <h2>Session {sessionId.slice(0, 8)}</h2>
        <p>Your role sees sessions without their messages (your role: {org.role}); owners, admins and developers read transcripts.</p>
        {known ? <SessionFacts session={known} appName={names.get(known.appId)} /> : <p class="muted">Session id: {sessionId}</p>}
        {known && <SessionDeletion org={org} session={known} onDeleted={onDeleted} />}
      </>
    );
  return (
    <>
      {back}
      <LoadView state={state}>
        {({ session, zdr, messages }) => (
          <>
            <h2>{session.title || `Session ${session.id.slice(0, 8)}`}</h2>
            <SessionFacts session={session} appName={names.get(session.appId)} queryParams={session.queryParams} />
            <section aria-labelledby="messages-heading">
              <h3 id="messages-heading">Messages</h3>
              {zdr ? (
                <p>This app keeps no messages (Zero Data Retention is on): only the session’s metadata is kept.</p>
              ) : messages.length === 0 ? (
                <p>This session has no messages.</p>
              ) : (
                <ol class="transcript">
                  {messages.map((m) => (
                    <MessageItem key={m.id} message={m} />
                  ))}
                </ol>
              )}
            </section>
            <SessionDeletion org={org} session={session} onDeleted={onDeleted} />
          </>
        )}
      </LoadView>
    </>
  );
}

interface FactsProps {
  readonly session: ConsoleSession;
  readonly appName: string | undefined;
  readonly queryParams?: readonly { readonly name: string; readonly value: string }[];
}

function SessionFacts({ session: s, appName, queryParams }: FactsProps) {
  return (
    <dl class="facts">
      <dt>Session id</dt>
      <dd>
        <code>{s.id}</code>
      </dd>
      <dt>App</dt>
      <dd>{appName ?? s.appId}</dd>
      <dt>Consumer</dt>
      <dd>{s.consumerEmail ?? (s.consumerId ? `Anonymous (${s.consumerId})` : 'None')}</dd>
      <dt>External id</dt>
      <dd>{s.externalId ?? 'None'}</dd>
      <dt>Source</dt>
      <dd>{s.source}</dd>
      <dt>Started</dt>
      <dd>{utcTime(s.startedAt)}</dd>
      <dt>Last activity</dt>
      <dd>{utcTime(s.lastActivityAt)}</dd>
      {queryParams && queryParams.length > 0 && (
        <>
          <dt>Query parameters</dt>
          <dd>{queryParams.map((q) => `${q.name}=${q.value}`).join(', ')}</dd>
        </>
      )}
    </dl>
  );
}

const ROLE_NAMES: Record<ConsoleMessage['role'], string> = { user: 'User', assistant: 'Assistant', system: 'System', tool: 'Tool result' };

function MessageItem({ message: m }: { readonly message: ConsoleMessage }) {
  return (
    <li class={`message message-${m.role}`}>
      <p class="message-meta">
        <strong>{ROLE_NAMES[m.role]}</strong> <time dateTime={m.createdAt}>{utcTime(m.createdAt)}</time>
      </p>
      {m.content ? (
        <p class="message-text">{m.content}</p>
      ) : (
        <p class="muted">{m.role === 'tool' ? 'A tool’s result (tool inputs and outputs are not kept).' : 'No text.'}</p>
      )}
      {m.tools && m.tools.length > 0 && (
        <ul class="tool-markers" aria-label="Tool calls">
          {m.tools.map((t, i) => (
            <li key={t.id ?? i}>{toolText(t)}</li>
          ))}
        </ul>
      )}
      {m.files && m.files.length > 0 && (
        <ul class="attached-files" aria-label="Attached files">
          {m.files.map((f) => (
            <li key={f.fileId}>
              {f.fileName}{' '}
              <span class="muted">
                ({FILE_KINDS[f.kind]}, {f.fileId})
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

const FILE_KINDS: Record<NonNullable<ConsoleMessage['files']>[number]['kind'], string> = { image: 'image', pdf: 'PDF', docx: 'Word document' };

function toolText(t: ToolMarker): string {
  const what = t.type === 'custom_component' ? `Component ${t.component ?? t.name ?? ''}` : `Tool call ${t.name ?? t.id ?? ''}`;
  const outcome = t.success === undefined ? '' : t.success ? ': succeeded' : ': failed';
  return `${what.trim()}${outcome}`;
}
