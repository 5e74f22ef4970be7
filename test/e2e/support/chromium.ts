import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** The system Chromium the e2e tests use when CHROMIUM_PATH is not set. */
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * Launches a headless Chromium for the e2e tests: `CHROMIUM_PATH` if set, else `/usr/bin/chromium`
 * if it exists, else the build bundled by @sparticuz/chromium (unpacked to /tmp on first use) with
 * its own arguments. No browser is downloaded (CI sets PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD).
 */
export async function launchChromium(): Promise<Browser> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return chromium.launch({ executablePath: fromEnv, args: ['--no-sandbox'] });
  if (existsSync(SYSTEM_CHROMIUM)) return chromium.launch({ executablePath: SYSTEM_CHROMIUM, args: ['--no-sandbox'] });
  const bundled = (await import('@sparticuz/chromium')).default;
  return chromium.launch({ executablePath: await bundled.executablePath(), args: bundled.args });
}
