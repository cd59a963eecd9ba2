import { defineConfig } from 'vitest/config';
import { RealWorkFirst } from './test/support/sequencer';

// Three projects: unit tests need nothing; integration and e2e tests talk to real Debusine
// servers, which the global setup brings up (test/debusine-server/sandbox.sh) unless the
// DEBUSINE_TEST_* variables point at a server of your own.
export default defineConfig({
  test: {
    // Two files at a time for unit and integration tests, so that the real-work tests,
    // which mostly wait for the sandbox's worker, run beside the others (e2e tests still
    // run one at a time, below).
    maxWorkers: 2,
    sequence: { sequencer: RealWorkFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
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
