/**
 * The upload screen puts each problem of a draft on the row of the file it names: the local
 * checks' problems (one per wrong file, with the file's name) land next to their files,
 * and nothing is left over as a general problem.
 */
import { describe, expect, it } from 'vitest';
import { rowsOf } from '@renderer/screens/upload/draft-files';
import type { LocalArtifactDraft, StagedFile } from '@shared/contract';

const staged: StagedFile[] = [
  { id: 'c', name: 'hello_1.0_amd64.changes', size: 1700 },
  { id: 't', name: 'hello_1.0.tar.xz', size: 803 },
  { id: 'd', name: 'hello_1.0_all.deb', size: 840 },
];

/** As DraftStore makes it when the checks fail: nothing built, one problem per file. */
const draft: LocalArtifactDraft = {
  draftId: 'x',
  kind: 'upload',
  category: 'debian:upload',
  reason: 'hello_1.0_amd64.changes is a .changes file',
  files: [],
  excludedFileIds: ['c', 't', 'd'],
  userExcludedFileIds: [],
  dropped: staged,
  data: {},
  parts: [],
  notes: [],
  workflow: null,
  problems: [
    {
      rule: 'listed-file.size',
      message:
        'hello_1.0_amd64.changes line 26 (Checksums-Sha256): hello_1.0.tar.xz is 803 bytes, the .changes lists 804',
      file: 'hello_1.0.tar.xz',
    },
    {
      rule: 'deb-truncated',
      message: 'hello_1.0_all.deb is truncated: member data.tar.xz at byte 568 needs 272 bytes',
      file: 'hello_1.0_all.deb',
    },
  ],
  allowRemote: false,
  beside: [],
  ready: false,
};

describe('problems on the upload screen', () => {
  it('sit next to the file each names', () => {
    const { rows, general } = rowsOf(draft);
    expect(general).toEqual([]);
    const problemsOf = (name: string) => rows.find((r) => r.name === name)?.problems ?? [];
    expect(problemsOf('hello_1.0.tar.xz').map((p) => p.rule)).toEqual(['listed-file.size']);
    expect(problemsOf('hello_1.0_all.deb').map((p) => p.rule)).toEqual(['deb-truncated']);
    expect(problemsOf('hello_1.0_amd64.changes')).toEqual([]);
  });
});
