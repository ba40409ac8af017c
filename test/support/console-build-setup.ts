/**
 * Vitest's global setup: builds the web console once before any test file starts (a few ms when the
 * build is up to date), so the in-process platforms serve it, the infra tests' front door ships it (as bin/app.ts builds it
 * before synth), and no two test files build at once.
 */
import { ensureConsoleBuilt } from '../../functions/local/console-build';

export default async function setup(): Promise<void> {
  await ensureConsoleBuilt();
}
