/**
 * `npm run bench`: measures the platform on the embedded backends and prints tables of numbers.
 * Benchmarks live here, never as timed assertions in tests.
 */
import { benchAcp } from './acp.bench';
import { benchBundles } from './bundles.bench';
import { benchChatLoad } from './chat-load.bench';
import { benchChatTurns } from './chat-turns.bench';
import { benchConsole } from './console.bench';
import { benchExportClientMemory } from './export-client-memory.bench';
import { benchExportScale } from './export-scale.bench';
import { benchFiles } from './files.bench';
import { benchOrgApps } from './org-apps.bench';
import { benchOrgSessions } from './org-sessions.bench';
import { benchWebhookFanout } from './webhook-fanout.bench';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const only = process.argv[2];
const suites: Record<string, () => Promise<void>> = {
  bundles: benchBundles,
  'org-apps': benchOrgApps,
  'org-sessions': benchOrgSessions,
  'export-scale': benchExportScale,
  'export-client-memory': benchExportClientMemory,
  'chat-turns': benchChatTurns,
  'webhook-fanout': benchWebhookFanout,
  files: benchFiles,
  acp: benchAcp,
  'chat-load': benchChatLoad,
  console: benchConsole,
};
if (only && !(only in suites)) throw new Error(`unknown suite ${only}: one of ${Object.keys(suites).join(', ')}`);

for (const [name, run] of Object.entries(suites)) {
  if (only && only !== name) continue;
  console.log(`\n## ${name}`);
  await run();
}
