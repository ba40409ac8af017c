/**
 * The sessions list: newest activity first, one page as the API pages it (its default size, no extra
 * request per row: app names come from one read of the apps), filtered by app, a window of last
 * activity, an external id or a consumer's e-mail address.
 */
import { useEffect, useState } from 'preact/hooks';
import { can, orgPath } from '../api-client';
import { LoadView } from '../components/load-view';
import { Pager, usePager } from '../components/pager';
import type { PageProps } from '../pages';
import { type ConsoleSession, rememberSessions, sessionName, utcTime } from '../sessions-views';
import { useLoadPage } from '../use-load';
import { useAppNames } from './usage-app-names';

interface Filters {
  readonly appId?: string;
  readonly from?: string;
  readonly to?: string;
  readonly externalId?: string;
  readonly consumerEmail?: string;
}

// A datetime-local value ("2026-11-29T01:00") read as UTC, as the labels say.
const utcInstant = (value: string | undefined) => (value ? `${value}:00Z` : undefined);

export function SessionsList({ org, navigate, notice }: PageProps & { readonly notice: string }) {
  const [filters, setFilters] = useState<Filters>({});
  const pager = usePager();
  const { apps, names } = useAppNames(org.orgId);
  const { state } = useLoadPage<ConsoleSession>(orgPath(org.orgId, 'sessions'), {
    ...filters,
    from: utcInstant(filters.from),
    to: utcInstant(filters.to),
    cursor: pager.cursor,
  });
  useEffect(() => {
    if (state?.kind === 'ready') rememberSessions(state.value.items);
  }, [state]);
  const onSubmit = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const value = (name: string) => (form.get(name) as string | null)?.trim() || undefined;
    setFilters({ appId: value('appId'), from: value('from'), to: value('to'), externalId: value('externalId'), consumerEmail: value('consumerEmail') });
    pager.reset();
  };
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <p role="status">{notice}</p>
      {!can(org, 'transcripts.read') && <p>Your role ({org.role}) sees sessions without their messages or titles.</p>}
      <form class="filters" aria-label="Filter sessions" onSubmit={onSubmit}>
        <label class="field">
          App
          <select name="appId" defaultValue="">
            <option value="">Every app</option>
            {apps.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          Active from (UTC)
          <input type="datetime-local" name="from" />
        </label>
        <label class="field">
          Active before (UTC)
          <input type="datetime-local" name="to" />
        </label>
        <label class="field">
          External id
          <input name="externalId" maxLength={512} autoComplete="off" />
        </label>
        <label class="field">
          Consumer e-mail
          <input type="email" name="consumerEmail" maxLength={320} autoComplete="off" />
        </label>
        <div class="filter-actions">
          <button type="submit" class="primary">
            Find sessions
          </button>
          <button
            type="reset"
            onClick={() => {
              setFilters({});
              pager.reset();
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <LoadView state={state}>
        {({ items, nextCursor }) => (
          <>
            <div class="table-scroll">
              <table class="sessions">
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
    </>
  );
}
