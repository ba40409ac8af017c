/**
 * Where the headless browser is: CHROMIUM_PATH, or Debian's `chromium` (installed by .ci/run). In CI a
 * missing browser fails the tests that need it; elsewhere they are skipped with a note saying how to
 * install it.
 */
import { existsSync } from 'node:fs';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string | undefined {
  const found = CANDIDATES.find((p): p is string => !!p && existsSync(p));
  if (!found && process.env.CI === 'true') throw new Error('No Chromium in CI: .ci/run installs Debian’s chromium (apt-get install chromium)');
  if (!found) console.warn('Browser tests skipped: no Chromium found (sudo apt-get install chromium, or set CHROMIUM_PATH)');
  return found;
}

/** Launch flags that work here as root; without the background-networking ones Chromium floods a closed network with refused connections. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
