/**
 * `npm run bench`: measures the platform on the embedded backends and prints tables of numbers.
 * Benchmarks live here, never as timed assertions in tests.
 */
import { benchOrgApps } from './org-apps.bench';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const only = process.argv[2];
const suites: Record<string, () => Promise<void>> = { 'org-apps': benchOrgApps };

for (const [name, run] of Object.entries(suites)) {
  if (only && only !== name) continue;
  console.log(`\n## ${name}`);
  await run();
}
