import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The suite reads desk-client's sources, not the dist/ an integrator imports; the rest are
  // Vite's own conditions for code run on the server.
  ssr: { resolve: { conditions: ['desk-source', 'module', 'node', 'development|production'] } },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'clients/typescript/test/**/*.test.ts'],
    // A screen test drives Chromium through pages and reads each with axe twice (the light page
    // and the dark one); on a busy two-core machine the longest took 30 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The suite spends much of its time waiting on Chromium, the mail servers and PostgreSQL,
    // so two files at once pay even on two cores, where the default would run one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Each file opens its own store, server, browser and mail servers, and none leaves a global
    // stubbed or the environment changed, so the files of one worker share its loaded modules
    // rather than load the program again for each.
    isolate: false,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
