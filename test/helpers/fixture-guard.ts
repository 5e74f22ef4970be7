import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** The shared Strapi fixture project: read-only for every test (builder tests work on copies). */
const FIXTURE = resolve(import.meta.dirname, '../fixtures/strapi/fixture-project');

async function fingerprint(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  const paths = entries.map((e) => join(e.parentPath, e.name)).sort();
  for (const path of paths) hash.update(path).update(await readFile(path));
  return hash.digest('hex');
}

/** vitest global setup: fails the run if any test wrote into the shared fixture project. */
export default async function setup(): Promise<() => Promise<void>> {
  const before = await fingerprint(FIXTURE);
  return async () => {
    if ((await fingerprint(FIXTURE)) !== before) {
      // A thrown error here is only logged by vitest: set the exit code so the run fails.
      process.exitCode = 1;
      process.stderr.write(`FAILED: a test modified the shared fixture project ${FIXTURE}; builder tests must use a copy (test/admin/helpers.ts fixtureCopy)\n`);
    }
  };
}
