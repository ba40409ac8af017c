/**
 * One page of the org's sessions, newest activity first, as the API pages it (its default size, so the
 * first paint is one read; app names come from the page's one read of the apps, never a request per
 * row). Keyed by its query: a new filter or page starts from "Loading…", never from the last answer.
 */
import { useEffect } from 'preact/hooks';
import { orgPath, type Query } from '../api-client';
import { LoadView } from '../components/load-view';
import { Pager, type usePager } from '../components/pager';
import { type ConsoleSession, rememberSessions, sessionName, utcTime } from '../sessions-views';
import { useLoadPage } from '../use-load';

interface Props {
  readonly orgId: string;
  readonly query: Query;
  readonly filtered: boolean;
  readonly names: ReadonlyMap<string, string>;
  readonly navigate: (href: string) => void;
  readonly pager: ReturnType<typeof usePager>;
}

export function SessionsTable({ orgId, query, filtered, names, navigate, pager }: Props) {
  const { state } = useLoadPage<ConsoleSession>(orgPath(orgId, 'sessions'), query);
  useEffect(() => {
    if (state?.kind === 'ready') rememberSessions(state.value.items);
  }, [state]);
  return (
    <LoadView state={state}>
      {({ items, nextCursor }) => (
        <>
          <div class="table-scroll">
            <table class="list sessions">
              <caption>Sessions{filtered ? ' matching the filters' : ''}, newest activity first</caption>
              <thead>
                <tr>
                  <th scope="col">Session</th>
                  <th scope="col">App</th>
                  <th scope="col">Consumer</th>
                  <th scope="col">External id</th>
                  <th scope="col">Started</th>
                  <th scope="col">Last activity</th>
                </tr>
              </thead>
              <tbody>
                {items.map((s) => (
                  <tr key={s.id}>
                    <th scope="row">
                      <a
                        href={`/console/sessions/${s.id}`}
                        onClick={(e) => {
                          if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                          e.preventDefault();
                          navigate(`/console/sessions/${s.id}`);
                        }}
                      >
                        {sessionName(s)}
                      </a>
                    </th>
                    <td>{names.get(s.appId) ?? s.appId}</td>
                    <td>{s.consumerEmail ?? (s.consumerId ? 'Anonymous consumer' : 'None')}</td>
                    <td>{s.externalId ?? ''}</td>
                    <td>
                      <time dateTime={s.startedAt}>{utcTime(s.startedAt)}</time>
                    </td>
                    <td>
                      <time dateTime={s.lastActivityAt}>{utcTime(s.lastActivityAt)}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {items.length === 0 && <p>{filtered ? 'No session matches these filters.' : 'No sessions yet.'}</p>}
          <Pager pager={pager} nextCursor={nextCursor} label="Sessions" />
        </>
      )}
    </LoadView>
  );
}
