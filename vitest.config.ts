import { defineConfig } from 'vitest/config';
import { rendererAliases } from './aliases.config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The real-work tests first. They spend minutes waiting for the sandbox's worker to build
 * and test packages, and need almost nothing of this machine meanwhile; started first, they
 * wait while the other worker runs the rest of the unit and integration tests, instead of
 * after them.
 */
class RealWorkFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = (spec: TestSpecification) =>
      /[\\/]real-work[^\\/]*\.test\.ts$/.test(spec.moduleId);
    return [...sorted.filter(slow), ...sorted.filter((spec) => !slow(spec))];
  }
}

// Three projects: unit tests need nothing (those that render renderer components ask for
// happy-dom in their first line); integration and e2e tests talk to real Debusine servers,
// which the global setup brings up (test/debusine-server/sandbox.sh) unless the
// DEBUSINE_TEST_* variables point at a server of your own.
export default defineConfig({
  resolve: { alias: rendererAliases },
  test: {
    // Two files at a time for unit and integration tests, so that the real-work tests,
    // which mostly wait for the sandbox's worker, run beside the others (e2e tests still
    // run one at a time, below).
    maxWorkers: 2,
    sequence: { sequencer: RealWorkFirst },
    projects: [
      {
        // The renderer's unit tests import its modules, which use its aliases.
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['test/unit/setup-dom.ts'],
          // A bound on a hang, not a measure of speed (bench/ measures that): tests that
          // write and grep megabytes take 2 s alone and over 5 s (vitest's default) beside
          // another test file and the sandbox's builds.
          testTimeout: 20_000,
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
