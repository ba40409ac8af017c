/** Starting a bulk snapshot of the chosen lists; the new export's page then follows its progress. */
import { useState } from 'preact/hooks';
import { callApi, type OrgMembership, orgPath } from '../api-client';
import { GuardedButton } from '../components/guarded-button';
import { useAction } from '../use-load';
import { EXPORT_LISTS, type ExportJob, type ExportList, LIST_LABELS } from './exports-views';

interface Props {
  readonly org: OrgMembership;
  readonly onStarted: (job: ExportJob) => void;
}

export function StartExport({ org, onStarted }: Props) {
  const [chosen, setChosen] = useState<readonly ExportList[]>(EXPORT_LISTS);
  const { busy, error, run } = useAction();
  const toggle = (list: ExportList, on: boolean) => setChosen((c) => EXPORT_LISTS.filter((l) => (l === list ? on : c.includes(l))));
  const start = async () => {
    const answer = await run(() => callApi<{ data: ExportJob }>(orgPath(org.orgId, 'exports'), { method: 'POST', body: { lists: chosen } }));
    if (answer) onStarted(answer.data);
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void start();
      }}
    >
      <fieldset>
        <legend>Lists to export</legend>
        {EXPORT_LISTS.map((list) => (
          <label key={list} class="check">
            <input type="checkbox" checked={chosen.includes(list)} onChange={(e) => toggle(list, e.currentTarget.checked)} /> {LIST_LABELS[list]}
          </label>
        ))}
      </fieldset>
      <p class="muted">A snapshot of everything visible now, as gzipped NDJSON files in the Org Export’s row shapes. Files stay downloadable for 7 days.</p>
      {error && <p role="alert">{error}</p>}
      <div class="actions start">
        <GuardedButton
          org={org}
          permission="exports.manage"
          reason="Only owners and admins export the org"
          refused={chosen.length === 0 ? 'Choose at least one list.' : undefined}
          busy={busy}
          variant="primary"
          onClick={start}
        >
          {busy ? 'Starting…' : 'Start the export'}
        </GuardedButton>
      </div>
    </form>
  );
}
