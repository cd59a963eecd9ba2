/**
 * What the sandbox's real tasks produced (test/unit/fixtures/real-work): the records of
 * their artifacts, and the log of a build whose debian/rules exits 1, as the explainer of
 * failures reads them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { analyseSbuildLog } from '../../src/main/logs/sbuild-log';
import type { FailureSources } from '../../src/main/results/failure-reason';
import { DebusineError } from '../../src/shared/errors';
import { artifactResponseSchema, type ArtifactResponse } from '../../src/shared/models';

export const REAL_WORK = join(import.meta.dirname, '../unit/fixtures/real-work');

/** The record of real artifact `id`, as the server sent it. */
export async function realArtifact(id: number): Promise<ArtifactResponse> {
  const text = await readFile(join(REAL_WORK, `artifact-${String(id)}.json`), 'utf8');
  return artifactResponseSchema.parse(JSON.parse(text));
}

/** The lines of the real failed build's log (artifact 424). */
export async function failedBuildLogLines(): Promise<string[]> {
  return (await readFile(join(REAL_WORK, 'ddt-broken-failed.build'), 'utf8')).split('\n');
}

/**
 * What the explainer reads: `artifacts` by id (`not-found` otherwise), and any log as the
 * real failed build's; each log analysed is recorded in `opened` as `<artifact>/<path>`.
 */
export function realWorkSources(
  artifacts: Record<number, ArtifactResponse>,
  opened: string[] = [],
): FailureSources {
  return {
    artifact: (id) => {
      const found = artifacts[id];
      return found ? Promise.resolve(found) : Promise.reject(new DebusineError('not-found', 'no'));
    },
    analyseLog: async (artifactId, path) => {
      opened.push(`${String(artifactId)}/${path}`);
      return analyseSbuildLog(await failedBuildLogLines());
    },
  };
}
