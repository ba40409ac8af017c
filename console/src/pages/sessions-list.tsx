/**
 * The sessions list's filters: by app, a window of last activity, an external id or a consumer's e-mail
 * address, applied on submit; the table below reads one page of what they match. The filters and the
 * page are the sessions page's, so coming back from a transcript finds the list as it was left.
 */
import { can } from '../api-client';
import type { usePager } from '../components/pager';
import type { PageProps } from '../pages';
import type { SessionFilters } from '../sessions-views';
import { SessionsTable } from './sessions-table';
import { useAppNames } from './usage-app-names';

interface Props extends PageProps {
  readonly notice: string;
  readonly filters: SessionFilters;
  readonly onFilters: (filters: SessionFilters) => void;
  readonly pager: ReturnType<typeof usePager>;
}

// A datetime-local value ("2026-11-29T01:00") read as UTC, as the labels say.
const utcInstant = (value: string | undefined) => (value ? `${value}:00Z` : undefined);

export function SessionsList({ org, navigate, notice, filters, onFilters, pager }: Props) {
  const { apps, names } = useAppNames(org.orgId);
  const query = { ...filters, from: utcInstant(filters.from), to: utcInstant(filters.to), cursor: pager.cursor };
  const onSubmit = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const value = (name: string) => (form.get(name) as string | null)?.trim() || undefined;
    onFilters({ appId: value('appId'), from: value('from'), to: value('to'), externalId: value('externalId'), consumerEmail: value('consumerEmail') });
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
          <select name="appId">
            <option value="">Every app</option>
            {apps.map((a) => (
              <option key={a.id} value={a.id} selected={a.id === filters.appId}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          Active from (UTC)
          <input type="datetime-local" name="from" defaultValue={filters.from} />
        </label>
        <label class="field">
          Active before (UTC)
          <input type="datetime-local" name="to" defaultValue={filters.to} />
        </label>
        <label class="field">
          External id
          <input name="externalId" maxLength={512} autoComplete="off" defaultValue={filters.externalId} />
        </label>
        <label class="field">
          Consumer e-mail
          <input type="email" name="consumerEmail" maxLength={320} autoComplete="off" defaultValue={filters.consumerEmail} />
        </label>
        <div class="filter-actions">
          <button type="submit" class="primary">
            Find sessions
          </button>
          <button
            type="reset"
            onClick={() => {
              onFilters({});
              pager.reset();
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <SessionsTable key={JSON.stringify(query)} orgId={org.orgId} query={query} filtered={filtered} names={names} navigate={navigate} pager={pager} />
    </>
  );
}
