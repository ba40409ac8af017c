/**
 * One export (`/console/exports/<id>`, a reloadable address): its progress, read again every two
 * seconds while it runs (stopped when the page goes), then its files with their download links.
 */
import { useEffect } from 'preact/hooks';
import { type OrgMembership, orgPath } from '../api-client';
import { LoadView } from '../components/load-view';
import { useLoad } from '../use-load';
import { type ExportJob, LIST_LABELS, STATUS_LABELS, sizeOf, when } from './exports-views';

const POLL_MS = 2000;

export function ExportDetail({ org, exportId, back }: { readonly org: OrgMembership; readonly exportId: string; readonly back: () => void }) {
  const { state, reload } = useLoad<ExportJob>(orgPath(org.orgId, `exports/${encodeURIComponent(exportId)}`));
  const running = state?.kind === 'ready' && state.value.status === 'running';
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, state, reload]);
  return (
    <>
      <p>
        <a
          href="/console/exports"
          onClick={(e) => {
            e.preventDefault();
            back();
          }}
        >
          All exports
        </a>
      </p>
      <LoadView state={state}>{(job) => <JobView job={job} />}</LoadView>
    </>
  );
}

function JobView({ job }: { readonly job: ExportJob }) {
  return (
    <>
      <h2>Export started {when(job.createdAt)}</h2>
      <p role="status" class={`export-state ${job.status}`}>
        {STATUS_LABELS[job.status]}
        {job.status === 'running' && ': writing the files; this page follows it.'}
        {job.status === 'completed' && job.completedAt && ` at ${when(job.completedAt)}.`}
        {job.status === 'failed' && `: ${job.error ?? 'the export stopped'}. Start another export.`}
      </p>
      <dl class="facts">
        <dt>Lists</dt>
        <dd>{job.lists.map((l) => LIST_LABELS[l]).join(', ')}</dd>
        <dt>Holds what was visible at</dt>
        <dd>{when(job.updatedAfter)}</dd>
      </dl>
      <div class="table-scroll">
        <table>
          <caption>Progress by list</caption>
          <thead>
            <tr>
              <th scope="col">List</th>
              <th scope="col">Files written</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {job.progress.map((p) => (
              <tr key={p.list}>
                <th scope="row">{LIST_LABELS[p.list]}</th>
                <td>{p.files}</td>
                <td>{p.done ? 'Done' : 'Writing'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {job.status === 'completed' && <Files job={job} />}
    </>
  );
}

function Files({ job }: { readonly job: ExportJob }) {
  if (job.files.length === 0) return <p>This export wrote no file.</p>;
  return (
    <div class="table-scroll files">
      <table>
        <caption>
          Files to download
          {job.urlsExpireAt && <span class="muted"> (the links work until {when(job.urlsExpireAt)}; reload the page for new ones)</span>}
        </caption>
        <thead>
          <tr>
            <th scope="col">List</th>
            <th scope="col">Rows</th>
            <th scope="col">Size</th>
            <th scope="col">Download</th>
          </tr>
        </thead>
        <tbody>
          {job.files.map((f, i) => (
            <tr key={f.url}>
              <th scope="row">{LIST_LABELS[f.list]}</th>
              <td>{f.rows.toLocaleString('en')}</td>
              <td>{sizeOf(f.bytes)}</td>
              <td>
                <a href={f.url} download>
                  Download<span class="sr-only"> {`${f.list} file ${i + 1}`}</span>
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
