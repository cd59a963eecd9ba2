/**
 * Lintian's tags of one artifact, for the results view: its `analysis.json` is fetched
 * through the verified download path (declared size and SHA-256 checked as it arrives)
 * into a private temporary folder, parsed field by field, and the folder removed whatever
 * happens. The file can be far larger than one line of text the bridge should carry, so
 * the size is capped before a byte is fetched and the number of tags returned is capped.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DebusineError } from '../../shared/errors';
import { parseLintianAnalysis, type LintianTags } from '../../shared/results/lintian';
import { downloadArtifactFile } from '../artifacts/transfer/download';
import { getArtifact, type ClientLike } from '../artifacts/transfer/remote';

export const ANALYSIS_FILE = 'analysis.json';
export const ANALYSIS_MAX_BYTES = 32 * 2 ** 20;
export const LINTIAN_TAGS_MAX = 5_000;

export interface LintianTagsOptions {
  /** Where the temporary folder is made (the system's by default). */
  tempRoot?: string;
  maxBytes?: number;
  maxTags?: number;
}

export async function lintianTags(
  client: ClientLike,
  artifactId: number,
  options: LintianTagsOptions = {},
): Promise<LintianTags> {
  const maxBytes = options.maxBytes ?? ANALYSIS_MAX_BYTES;
  const artifact = await getArtifact(client, artifactId);
  const declared = artifact.files[ANALYSIS_FILE];
  if (!declared) {
    throw new DebusineError(
      'not-found',
      `Artifact ${String(artifactId)} has no ${ANALYSIS_FILE}: it is not a lintian report.`,
      { artifact: artifactId, file: ANALYSIS_FILE },
    );
  }
  if (declared.size > maxBytes) {
    throw new DebusineError(
      'validation',
      `Artifact ${String(artifactId)}'s ${ANALYSIS_FILE} is ${String(declared.size)} bytes, ` +
        `more than the ${String(maxBytes)} this view reads; download the artifact instead.`,
      { artifact: artifactId, file: ANALYSIS_FILE, rule: 'size-cap' },
    );
  }
  const folder = await mkdtemp(join(options.tempRoot ?? tmpdir(), 'ddt-lintian-'));
  try {
    const target = join(folder, ANALYSIS_FILE);
    await downloadArtifactFile(client, artifact, ANALYSIS_FILE, target);
    const text = await readFile(target, 'utf8');
    const tags = parseLintianAnalysis(text, `Artifact ${String(artifactId)}'s ${ANALYSIS_FILE}`);
    return {
      artifactId,
      tags: tags.slice(0, options.maxTags ?? LINTIAN_TAGS_MAX),
      total: tags.length,
    };
  } catch (error) {
    if (error instanceof DebusineError) throw error;
    throw new DebusineError('bad-response', (error as Error).message, {
      artifact: artifactId,
      file: ANALYSIS_FILE,
    });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
