import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
/** The `hearth serve` the dev server forwards API calls to. */
const target = process.env.HEARTH_URL ?? 'http://127.0.0.1:1337';

// The admin UI: built into dist/renderer, served by the server at /admin under a strict CSP
// (no inline scripts or styles), so nothing here may inline code into index.html.
export default defineConfig({
  root: `${here}renderer`,
  base: '/admin/',
  plugins: [react()],
  // GraphiQL's monaco workers (graphiql/setup-workers/vite) are bundled as files of their own,
  // ES modules like the app, and load from /admin/assets (the CSP allows only 'self').
  worker: { format: 'es' },
  build: {
    outDir: `${here}dist/renderer`,
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // monaco (GraphiQL's editor, ~2.8 MB) is one chunk, loaded only by the API playground screen.
    chunkSizeWarningLimit: 3000,
    rolldownOptions: {
      onwarn(warning, warn) {
        // graphiql's modules start with "use no memo" (a React Compiler hint), meaningless once bundled.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    strictPort: false,
    proxy: {
      '/admin/api': { target, changeOrigin: true },
      '/api': { target, changeOrigin: true },
      '/uploads': { target, changeOrigin: true },
      // The change stream the screens refresh from (and the OpenAPI document).
      '/hearth': { target, changeOrigin: true },
    },
  },
});
