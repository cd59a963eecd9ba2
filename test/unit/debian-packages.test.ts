/**
 * Which Debian packages `npm test` makes sure of, by the vitest projects on its command line:
 * an e2e project (either of the two, or a pattern naming them) needs Chromium and the
 * sandboxes, the unit project neither; the packages the corpus is built with come with the
 * sandboxes.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of scripts/, with no declarations of its own.
import { neededGroups } from '../../scripts/debian-packages.mjs';

const groups = (args: string[], env: Record<string, string> = {}): string[] =>
  [...(neededGroups as (a: string[], e: Record<string, string>) => Set<string>)(args, env)].sort();

describe('neededGroups', () => {
  it('needs everything for a whole run', () => {
    expect(groups([])).toEqual(['all', 'corpus', 'e2e', 'sandbox', 'servers']);
  });

  it.each([['e2e'], ['e2e-waits'], ['e2e*']])(
    'needs Chromium and a sandbox for --project %s',
    (p) => {
      expect(groups(['--project', p])).toEqual(['all', 'corpus', 'e2e', 'sandbox', 'servers']);
      expect(groups([`--project=${p}`])).toEqual(['all', 'corpus', 'e2e', 'sandbox', 'servers']);
    },
  );

  it('needs a sandbox but no Chromium for the integration tests, and neither for unit tests', () => {
    expect(groups(['--project', 'integration'])).toEqual(['all', 'corpus', 'sandbox', 'servers']);
    expect(groups(['--project', 'unit'])).toEqual(['all']);
  });

  it('needs no sandbox when the tests target a server of your own', () => {
    expect(groups(['--project', 'e2e'], { DEBUSINE_TEST_API_URL: 'https://x/api' })).toEqual([
      'all',
      'e2e',
      'servers',
    ]);
  });
});
