/**
 * Usage and cost over a range of UTC days (default: the last 30), for every app or one: grouped by day,
 * app or model, as a chart with its table and a CSV of that table. Every role may read it.
 */
import { useState } from 'preact/hooks';
import { orgPath } from '../api-client';
import { LoadView } from '../components/load-view';
import type { PageProps } from '../pages';
import { utcTime } from '../sessions-views';
import { useLoad } from '../use-load';
import type { UsageDetail } from '../usage-views';
import { useAppNames } from './usage-app-names';
import { UsageBreakdown } from './usage-breakdown';

type Range = {
  readonly from?: string;
  readonly to?: string;
  readonly appId?: string;
};

export function UsagePage({ org }: PageProps) {
  const [range, setRange] = useState<Range>({});
  const { apps, names } = useAppNames(org.orgId);
  const onSubmit = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const value = (name: string) => (form.get(name) as string | null) || undefined;
    setRange({ from: value('from'), to: value('to'), appId: value('appId') });
  };
  return (
    <>
      <form class="filters" onSubmit={onSubmit} aria-label="Usage range">
        <label class="field">
          From (UTC day)
          <input type="date" name="from" defaultValue={range.from} />
        </label>
        <label class="field">
          To (UTC day, included)
          <input type="date" name="to" defaultValue={range.to} />
        </label>
        <label class="field">
          App
          <select name="appId" defaultValue={range.appId ?? ''}>
            <option value="">Every app</option>
            {apps.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary">
          Show usage
        </button>
      </form>
      <p class="muted">Without dates, the last 30 days up to today. Usage is totalled every 5 minutes.</p>
      <UsageResults key={JSON.stringify(range)} orgId={org.orgId} range={range} names={names} />
    </>
  );
}

/** The answer for one range: keyed by it, so a new range starts from "Loading…", never from the last answer. */
function UsageResults({ orgId, range, names }: { readonly orgId: string; readonly range: Range; readonly names: ReadonlyMap<string, string> }) {
  const usage = useLoad<UsageDetail>(orgPath(orgId, 'usage'), range).state;
  return (
    <LoadView state={usage}>
      {(u) => (
        <>
          <p role="status">
            {u.totals.calls.toLocaleString('en')} {u.totals.calls === 1 ? 'call' : 'calls'}, {u.totals.costUsd} USD from {u.from} to {u.to}
            {range.appId ? ` for ${names.get(range.appId) ?? 'one app'}` : ''}.{' '}
            {u.asOf ? `Counted up to ${utcTime(u.asOf)}.` : 'Not counted yet: the first totals come within 5 minutes.'}
          </p>
          <UsageBreakdown usage={u} appNames={names} />
        </>
      )}
    </LoadView>
  );
}
