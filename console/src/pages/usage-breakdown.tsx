/**
 * Usage grouped by day, app or model (a switch), as a bar chart of one measure with the table beside it
 * as its text alternative, and "Download CSV" of exactly the table shown. Used by the usage page and
 * the overview.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { BarChart } from '../components/bar-chart';
import {
  columnsOf,
  GROUPINGS,
  groupUsage,
  METRICS,
  metricOf,
  USAGE_COLUMNS,
  type UsageDetail,
  type UsageGrouping,
  type UsageMetric,
  usageCsv,
} from '../usage-views';

interface Props {
  readonly usage: UsageDetail;
  readonly appNames: ReadonlyMap<string, string>;
}

const count = (n: number) => n.toLocaleString('en');
// Two decimals, or as many as a fraction of a cent needs to show two significant digits.
const usd = (v: number) => `$${v.toFixed(v > 0 && v < 0.01 ? Math.min(10, 1 - Math.floor(Math.log10(v))) : 2)}`;

export function UsageBreakdown({ usage, appNames }: Props) {
  const [by, setBy] = useState<UsageGrouping>('day');
  const [metric, setMetric] = useState<UsageMetric>('calls');
  const groups = useMemo(() => groupUsage(usage, by, appNames), [usage, by, appNames]);
  const groupLabel = GROUPINGS.find((g) => g.value === by)!.label;
  const metricLabel = METRICS.find((m) => m.value === metric)!.label;
  const range = `${usage.from} to ${usage.to}`;
  const caption = `Usage per ${by}, ${range}`;
  const csv = useObjectUrl(useMemo(() => usageCsv(groupLabel, groups), [groupLabel, groups]));
  const format = metric === 'cost' ? usd : count;
  return (
    <div class="usage-breakdown">
      <div class="usage-controls">
        <fieldset class="switch">
          <legend>Group by</legend>
          {GROUPINGS.map((g) => (
            <label key={g.value}>
              <input type="radio" name="usage-group" value={g.value} checked={by === g.value} onChange={() => setBy(g.value)} /> {g.label}
            </label>
          ))}
        </fieldset>
        <label class="field">
          Chart shows
          <select value={metric} onChange={(e) => setMetric(e.currentTarget.value as UsageMetric)}>
            {METRICS.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <BarChart
        title={`${metricLabel} per ${by}, ${range} (the table “${caption}” gives the numbers)`}
        bars={groups.map((g) => ({ label: g.label, value: metricOf(g.totals, metric) }))}
        format={format}
      />
      <div class="table-scroll">
        <table class="usage-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{groupLabel}</th>
              {USAGE_COLUMNS.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={g.key}>
                <th scope="row">{g.label}</th>
                {columnsOf(g.totals).map((v, i) => (
                  <td key={USAGE_COLUMNS[i]}>{typeof v === 'number' ? count(v) : v}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {groups.length === 0 && <p>No usage in this range.</p>}
      {csv && (
        <p>
          <a class="button" href={csv} download={`usage-by-${by}-${usage.from}-to-${usage.to}.csv`}>
            Download CSV
          </a>{' '}
          <span class="muted">(the table above, {groups.length === 1 ? '1 row' : `${groups.length} rows`})</span>
        </p>
      )}
    </div>
  );
}

/** A blob: URL for `text`, revoked when the text changes or the component goes. */
function useObjectUrl(text: string): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const made = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [text]);
  return url;
}
