import type { SigningReview } from '@shared/contract';

/**
 * What main answers about the upload a step would sign: by default the upload the user
 * made from this machine, as made; `verdict` another gives one field and one file that
 * differ, as main words them.
 */
export function reviewFixture(
  verdict: SigningReview['verdict'] = 'same',
  digest = 'd'.repeat(64),
): SigningReview {
  const same = verdict === 'same';
  return {
    artifactId: 500,
    workspace: 'developers',
    verdict,
    summary: same
      ? 'This is the upload you made from this machine on 2026-11-20 10:00 UTC (artifact 300).'
      : 'This is not the upload of hello 2.10-4 you made from this machine on 2026-11-20 10:00 UTC: 2 difference(s). Read them before you sign.',
    made:
      same || verdict === 'differs'
        ? { at: '2026-11-20T10:00:00Z', artifactId: 300, workspace: 'developers', workflowId: 40 }
        : null,
    fields: [
      { name: 'Source', value: 'hello', made: 'hello', differs: false },
      { name: 'Version', value: '2.10-4', made: '2.10-4', differs: false },
      {
        name: 'Distribution',
        value: same ? 'unstable' : 'bookworm-security',
        made: 'unstable',
        differs: !same,
      },
      { name: 'Architecture', value: 'source', made: null, differs: false },
      { name: 'Changed-By', value: 'Me <me@example.org>', made: null, differs: false },
      { name: 'Maintainer', value: 'Me <me@example.org>', made: null, differs: false },
    ],
    files: [
      {
        name: 'hello_2.10-4.dsc',
        sha256: '1'.repeat(64),
        size: 1200,
        listedBy: ['.changes'],
        state: 'same',
        made: '1'.repeat(64),
      },
      {
        name: 'hello_2.10.orig.tar.gz',
        sha256: '2'.repeat(64),
        size: 725946,
        listedBy: ['.changes', '.dsc'],
        state: same ? 'same' : 'changed',
        made: same ? '2'.repeat(64) : '3'.repeat(64),
      },
    ],
    differences: same
      ? []
      : [
          'Distribution: you uploaded “unstable”, this upload has “bookworm-security”.',
          'hello_2.10.orig.tar.gz: other contents than the file you uploaded (SHA-256 differs).',
        ],
    changes: {
      name: 'hello_2.10-4_source.changes',
      text: 'Format: 1.8\nSource: hello\nVersion: 2.10-4\n',
      truncated: false,
    },
    digest,
  };
}
