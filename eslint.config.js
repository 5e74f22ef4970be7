// ESLint for the TypeScript of every folder: syntax-only rules (no type information), so `npm run lint`
// stays quick. Import boundaries are checked by scripts/check-boundaries.ts (dependency-cruiser), not here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Node's globals for the few plain .mjs files (bench preloads); TypeScript checks the .ts ones. */
const NODE_GLOBALS = {
  process: 'readonly',
  performance: 'readonly',
  console: 'readonly',
  URL: 'readonly',
  Buffer: 'readonly',
  module: 'writable',
  require: 'readonly',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'release/', 'coverage/', 'test-results/', '.electron-native/', 'test/fixtures/', 'bench/results/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // House style: a leading underscore names what a destructuring leaves out or a signature must take.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // File names and archive paths are checked for control characters on purpose (Strapi's valid-filename, tar entries).
      'no-control-regex': 'off',
    },
  },
  { files: ['**/*.mjs', '**/*.js', '**/*.cjs'], languageOptions: { globals: NODE_GLOBALS } },
  // The sandboxed preload is CommonJS: `import x = require('electron')` is its only way to import.
  { files: ['main/preload.cts'], rules: { '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }] } },
);
