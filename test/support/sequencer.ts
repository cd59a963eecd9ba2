import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The real-work tests first. They spend minutes waiting for the sandbox's worker to build
 * and test packages, and need almost nothing of this machine meanwhile; started first, they
 * wait while the other worker runs the rest of the unit and integration tests, instead of
 * after them.
 */
export class RealWorkFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = (spec: TestSpecification) =>
      /[\\/]real-work[^\\/]*\.test\.ts$/.test(spec.moduleId);
    return [...sorted.filter(slow), ...sorted.filter((spec) => !slow(spec))];
  }
}
