/**
 * Bulk exports of the org: start a snapshot of chosen lists, follow it until its files are written,
 * download them; the exports of the last 7 days. Exports hold every transcript: owners and admins only.
 */
import { can, orgPath } from '../api-client';
import { LoadView } from '../components/load-view';
import { Pager, usePager } from '../components/pager';
import { hrefOf, PAGES, type PageProps } from '../pages';
import { useLoadPage } from '../use-load';
import { ExportDetail } from './exports-detail';
import { StartExport } from './exports-start';
import { type ExportJob, LIST_LABELS, STATUS_LABELS, when } from './exports-views';

/** What the export's own page offers, by its state. */
const LINK_LABELS: Readonly<Record<ExportJob['status'], string>> = { running: 'Progress', completed: 'Files', failed: 'What failed' };

const exportsPage = PAGES.find((p) => p.path === 'exports')!;

export function ExportsPage({ org, rest, navigate }: PageProps) {
  const [exportId] = rest;
  if (exportId) return <ExportDetail org={org} exportId={exportId} back={() => navigate(hrefOf(exportsPage))} />;
  return <ExportList org={org} open={(id) => navigate(hrefOf(exportsPage, id))} />;
}

function ExportList({ org, open }: { readonly org: PageProps['org']; readonly open: (id: string) => void }) {
  const permitted = can(org, 'exports.manage');
  const pager = usePager();
  const jobs = useLoadPage<ExportJob>(permitted ? orgPath(org.orgId, 'exports') : undefined, { cursor: pager.cursor, limit: 20 });
  return (
    <>
      <section aria-labelledby="start-heading">
        <h2 id="start-heading">Start an export</h2>
        <StartExport org={org} onStarted={(job) => open(job.id)} />
      </section>
      <section aria-labelledby="recent-heading">
        <h2 id="recent-heading">Recent exports</h2>
        <LoadView state={jobs.state} refused={`Your role (${org.role}) cannot see exports: they hold every transcript of the org. An owner or admin can.`}>
          {(page) =>
            page.items.length === 0 && pager.page === 1 ? (
              <p>No export in the last 7 days.</p>
            ) : (
              <>
                <div class="table-scroll">
                  <table class="list">
                    <caption>Exports of the last 7 days, newest first</caption>
                    <thead>
                      <tr>
                        <th scope="col">Started</th>
                        <th scope="col">Lists</th>
                        <th scope="col">State</th>
                        <th scope="col">Files</th>
                      </tr>
                    </thead>
                    <tbody>
                      {page.items.map((job) => (
                        <tr key={job.id}>
                          <th scope="row" class="nowrap">
                            {when(job.createdAt)}
                          </th>
                          <td>{job.lists.map((l) => LIST_LABELS[l]).join(', ')}</td>
                          <td>{STATUS_LABELS[job.status]}</td>
                          <td>
                            <a
                              href={hrefOf(exportsPage, job.id)}
                              onClick={(e) => {
                                e.preventDefault();
                                open(job.id);
                              }}
                            >
                              {LINK_LABELS[job.status]}
                              <span class="sr-only"> of the export started {when(job.createdAt)}</span>
                            </a>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                <Pager pager={pager} nextCursor={page.nextCursor} label="Exports" />
              </>
            )
          }
        </LoadView>
      </section>
    </>
  );
}
