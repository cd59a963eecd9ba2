// @vitest-environment happy-dom
/**
 * A file name from a server (or from a dropped file) is shown with its invisible characters
 * made visible, wherever the app shows file names: the artifact's file table, its
 * downloads, the upload screen's drafts and jobs, a work request's result files and the
 * log viewer's title. The attack: `evil\u202Etxt.exe`, which RIGHT-TO-LEFT OVERRIDE makes
 * read "evilexe.txt". The property checked is that nothing invisible is left in the page,
 * in its text or in any attribute (labels are read out, titles shown on hover).
 */
import { cleanup, render } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { Download } from 'lucide-react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArtifactResponse, LocalArtifactDraft, UploadJob } from '@shared/contract';
import { DownloadList } from '@renderer/screens/artifacts/download-list';
import { FileTable } from '@renderer/screens/artifacts/file-table';
import { LogHeader } from '@renderer/screens/logs/log-header';
import { DraftFiles } from '@renderer/screens/upload/draft-files';
import { UploadRow } from '@renderer/screens/upload/upload-row';
import { FilesResult } from '@renderer/screens/work-requests/result-files';
import { WithServer } from './support/with-server';

const EVIL = 'evil\u202etxt.exe';
/** A text file (the viewer opens it), with a zero-width space and a bidi isolate. */
const LOG = 'logs/\u2066build\u2069\u200b.log';
const SHOWN = 'evil<U+202E>txt.exe';

/** Anything that shows nothing or acts on the text around it. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** Every piece of text in the page: text nodes and attribute values. */
function everything(root: HTMLElement): string[] {
  const found: string[] = [root.textContent];
  for (const element of root.querySelectorAll('*')) {
    for (const attribute of element.attributes) found.push(attribute.value);
  }
  return found;
}

function expectNothingInvisible(root: HTMLElement): void {
  const left = everything(root).filter((text) => INVISIBLE.test(text));
  expect(left).toEqual([]);
}

const FILE = { size: 10, checksums: { sha256: 'ab'.repeat(32) }, content_type: null };
const files = { [EVIL]: FILE, [LOG]: FILE } as unknown as ArtifactResponse['files'];

afterEach(cleanup);

describe('file names with bidirectional and format characters', () => {
  it('show them as visible marks in the artifact’s file table', () => {
    const { container } = render(
      <FileTable
        files={Object.entries(files)}
        notUploaded={[]}
        downloadIcon={Download}
        onView={() => undefined}
        onDownload={() => undefined}
      />,
    );
    const cells = [...container.querySelectorAll('td.file-path')].map((td) => td.textContent);
    expect(cells).toEqual([SHOWN, 'logs/<U+2066>build<U+2069><U+200B>.log']);
    expect(container.querySelector(`[aria-label="Download ${SHOWN}"]`)).not.toBeNull();
    expectNothingInvisible(container);
  });

  it('and in the downloads, the log viewer’s title and a work request’s files', () => {
    const artifact = { id: 7, files } as unknown as ArtifactResponse;
    const list = {
      rows: [{ key: EVIL, label: EVIL, job: null, handedToBrowser: true, error: null }],
      onDismiss: () => undefined,
      onCancel: () => undefined,
    } as ComponentProps<typeof DownloadList>;
    const header = {
      path: EVIL,
      artifactId: 7,
      category: null,
      state: null,
      backLabel: 'Back',
      onBack: () => undefined,
      onCancel: () => undefined,
    } as ComponentProps<typeof LogHeader>;
    const { container } = render(
      <WithServer>
        <DownloadList {...list} />
        <LogHeader {...header} />
        <FilesResult artifact={artifact} workRequestId={3} />
      </WithServer>,
    );
    expect(container.querySelector('.download-label')?.textContent).toBe(SHOWN);
    expect(container.querySelector('#log-title')?.textContent).toBe(SHOWN);
    expect(container.textContent).toContain(`${SHOWN} `);
    expectNothingInvisible(container);
  });

  it('and on the upload screen, in a draft and in an upload', () => {
    const draft: LocalArtifactDraft = {
      draftId: 'x',
      kind: 'upload',
      category: 'debian:upload',
      reason: '',
      files: [{ fileId: 'f', pathInArtifact: EVIL, size: 3 }],
      excludedFileIds: [],
      userExcludedFileIds: [],
      dropped: [{ id: 'f', name: EVIL, size: 3 }],
      data: {},
      problems: [],
      allowRemote: false,
      beside: [],
      ready: true,
      parts: [{ category: 'debian:upload', label: EVIL }],
      notes: [],
      workflow: null,
    };
    const job: UploadJob = {
      jobId: 'j',
      draftId: 'x',
      state: 'running',
      category: 'debian:upload',
      workspace: 'System',
      label: EVIL,
      sentBytes: 1,
      totalBytes: 3,
      files: [{ path: EVIL, sentBytes: 1, totalBytes: 3, state: 'active' }],
      speed: 0,
      eta: null,
      apiUrl: 'http://127.0.0.1:1/api',
      artifactId: null,
      parts: [
        { category: 'debian:upload', label: EVIL, artifactId: null, state: 'sending', missing: [] },
      ],
      relations: { made: 0, total: 0 },
      workflow: null,
      createdAt: new Date(0).toISOString(),
      resumed: false,
      error: null,
      retryable: true,
    };
    const { container } = render(
      <>
        <DraftFiles draft={draft} busy={false} onToggle={() => undefined} />
        <ul>
          <UploadRow
            job={job}
            busy={false}
            startedHere
            onAction={() => undefined}
            onOpen={() => undefined}
          />
        </ul>
      </>,
    );
    expect(container.querySelector('td.file-name')?.textContent).toBe(SHOWN);
    expect(container.querySelector('.upload-label')?.textContent).toBe(SHOWN);
    expectNothingInvisible(container);
  });
});
