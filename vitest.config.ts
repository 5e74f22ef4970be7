import { defineConfig } from 'vitest/config';

/** Suites whose subject is the database behind the API: they run again on PostgreSQL. */
const ON_BOTH_DATABASES = [
  'test/api/**/*.test.ts',
  'test/admin/**/*.test.ts',
  'test/users/**/*.test.ts',
  'test/webhooks/**/*.test.ts',
  'test/mcp/mcp-http*.test.ts',
  'test/graphql/transcripts.test.ts',
  'test/graphql/graphql-http.test.ts',
  'test/graphql/graphql-cost.test.ts',
  'test/graphql/graphql-mutations.test.ts',
  'test/graphql/graphql-plugins.test.ts',
  'test/graphql/differential.test.ts',
  'test/graphql/differential-mutations.test.ts',
  'test/fuzz/**/*.test.ts',
  'test/property/**/*.test.ts',
  'test/backup/postgres*.test.ts',
];

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: ['test/backup/postgres*.test.ts'],
          globalSetup: ['./test/helpers/fixture-guard.ts'],
        },
      },
      {
        // The same suites with every server on a throwaway PostgreSQL server (DATABASE_URL).
        extends: true,
        test: {
          name: 'postgres',
          include: ON_BOTH_DATABASES,
          globalSetup: ['./test/helpers/fixture-guard.ts', './test/helpers/postgres-server.ts'],
        },
      },
    ],
  },
});
