/**
 * Not a test: the child process of the crash case in export-convergence.test.ts. Runs one sync pass
 * into the DuckDB file argv[2] against argv[3] (key in EXPORT_SYNC_KEY) and SIGKILLs itself inside
 * the first commit that writes sessions, after its rows were written and before COMMIT.
 */
import { DuckDbStore } from '../../functions/cli/export-sync/duckdb-store';
import { fetchTransport } from '../../functions/cli/export-sync/export-api';
import { syncOnce } from '../../functions/cli/export-sync/sync-client';

const [path, baseUrl] = process.argv.slice(2);
let pass = '';
const store = await DuckDbStore.open(path!, {
  beforeCommit: () => {
    if (pass !== 'sessions') return;
    process.stdout.write(`${JSON.stringify({ killing: pass })}\n`);
    process.kill(process.pid, 'SIGKILL');
  },
});
await syncOnce({
  transport: fetchTransport(baseUrl!, process.env.EXPORT_SYNC_KEY!),
  store,
  onProgress: (e) => {
    if (!e.done && e.list !== 'messages') pass = e.list;
  },
});
process.stdout.write('{"killing":null}\n');
