/**
 * The sessions list's filters: by app, a window of last activity, an external id or a consumer's e-mail
 * address, applied on submit; the table below reads one page of what they match.
 */
import { useState } from 'preact/hooks';
import { can } from '../api-client';
import { usePager } from '../components/pager';
import type { PageProps } from '../pages';
import { SessionsTable } from './sessions-table';
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
  const query = { ...filters, from: utcInstant(filters.from), to: utcInstant(filters.to), cursor: pager.cursor };
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
      <SessionsTable key={JSON.stringify(query)} orgId={org.orgId} query={query} filtered={filtered} names={names} navigate={navigate} pager={pager} />
    </>
  );
}
