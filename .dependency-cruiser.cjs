// Import boundaries of docs/architecture.md, checked by `npm run lint` (scripts/check-boundaries.ts).
// Rules bind the shipped code (server/, main/); tests and benches may reach into any module they test.
// Type-only imports count: a layer entered by `import type` is still entered.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'query-is-pure',
      comment: 'server/query/ imports only server/schema/, server/errors/ and server/limits.ts (and itself).',
      severity: 'error',
      from: { path: '^server/query/' },
      to: {
        path: '^(server|main|renderer|scripts|test|bench)/',
        pathNot: '^server/(query|schema|errors)/|^server/limits\\.ts$',
      },
    },
    {
      name: 'documents-front-door',
      comment: 'Outside server/documents/, the document service is entered through server/documents/index.ts only.',
      severity: 'error',
      from: { path: '^(server|main)/', pathNot: '^server/documents/' },
      to: { path: '^server/documents/', pathNot: '^server/documents/index\\.ts$' },
    },
    {
      name: 'http-is-an-edge',
      comment: 'Only server/app.ts and server/index.ts import server/http/ (and http/ itself).',
      severity: 'error',
      from: { path: '^(server|main)/', pathNot: '^server/(app|index)\\.ts$|^server/http/' },
      to: { path: '^server/http/' },
    },
    {
      name: 'main-enters-by-index',
      comment: 'main/ (the Electron shell) imports server/index.ts only.',
      severity: 'error',
      from: { path: '^main/' },
      to: { path: '^server/', pathNot: '^server/index\\.ts$' },
    },
    {
      name: 'renderer-imports-types-only',
      comment: 'The admin UI talks to the server over HTTP; it may share types, never code.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^(server|main)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^test/fixtures/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.cts', '.mts', '.js', '.cjs', '.mjs', '.json', '.d.ts'],
    },
    skipAnalysisNotInRules: true,
  },
};
