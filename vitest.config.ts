import { defineConfig } from 'vitest/config';
import { rendererAliases } from './aliases.config';

// Three projects: unit tests need nothing (those that render renderer components ask for
// happy-dom in their first line); integration and e2e tests talk to real Debusine servers,
// which the global setup brings up (test/debusine-server/sandbox.sh) unless the
// DEBUSINE_TEST_* variables point at a server of your own.
export default defineConfig({
  resolve: { alias: rendererAliases },
  test: {
    projects: [
      {
        // The renderer's unit tests import its modules, which use its aliases.
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 1_800_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 1_800_000,
          // One browser at a time: the machines here have two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
