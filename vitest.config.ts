import { defineConfig } from 'vitest/config';
import { rendererAliases } from './aliases.config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that mostly wait for the sandbox's worker, first: the real-work tests and the
 * e2e file of the `e2e-waits` project (below). They spend minutes waiting for it to build
 * and test packages, and need little of this machine meanwhile; started first, they wait
 * while the other worker runs the unit and integration tests, instead of after them.
 */
class WaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = (spec: TestSpecification) =>
      spec.project.name === 'e2e-waits' || /[\\/]real-work[^\\/]*\.test\.ts$/.test(spec.moduleId);
    return [...sorted.filter(waits), ...sorted.filter((spec) => !waits(spec))];
  }
}

/**
 * The e2e file that spends most of its minutes waiting for the sandbox's worker: the Debian
 * developer's journey (the worker builds, tests and uploads a package), a third of the e2e
 * project's time. In a project of its own it runs beside the unit and integration tests, one
 * browser, instead of after them. The list of 10,000 work requests stays with the others: it
 * waits for the server's CPU (a thousand list pages), which the journey's builds share, and
 * beside them it took twice as long.
 */
const E2E_WAITS = ['test/e2e/dput-journey.test.ts'];

// Four projects: unit tests need nothing (those that render renderer components ask for
// happy-dom in their first line); integration and the two e2e projects talk to real Debusine
// servers, which the global setup brings up (test/debusine-server/sandbox.sh) unless the
// DEBUSINE_TEST_* variables point at a server of your own.
export default defineConfig({
  resolve: { alias: rendererAliases },
  test: {
    // Two files at a time for unit, integration and e2e-waits tests, so that the files that
    // mostly wait for the sandbox run beside the others (the other e2e tests run one at a
    // time, after them, below).
    maxWorkers: 2,
    sequence: { sequencer: WaitingFirst },
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
          name: 'e2e-waits',
          include: E2E_WAITS,
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
          exclude: E2E_WAITS,
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
