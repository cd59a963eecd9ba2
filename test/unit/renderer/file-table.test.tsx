// @vitest-environment happy-dom
/**
 * An artifact's file table offers "Open" on text files only and "Download" on every file,
 * each named with the file's path, both disabled for a file that was not uploaded, and each
 * handing its own path to its own action.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Download } from 'lucide-react';
import { afterEach, describe, expect, it } from 'vitest';
import { FileTable } from '@renderer/screens/artifacts/file-table';
import type { ArtifactResponse } from '@shared/contract';

type Files = ArtifactResponse['files'];
const FILE = { size: 10, checksums: { sha256: 'ab'.repeat(32) }, content_type: null };
const files = { 'build.log': FILE, 'hello.deb': FILE } as unknown as Files;

afterEach(cleanup);

describe('FileTable', () => {
  it('offers Open on text files, Download on all, each with its own path', () => {
    const viewed: string[] = [];
    const downloaded: string[] = [];
    render(
      <FileTable
        files={Object.entries(files)}
        notUploaded={['hello.deb']}
        downloadIcon={Download}
        onView={(p) => viewed.push(p)}
        onDownload={(p) => downloaded.push(p)}
      />,
    );
    const names = screen
      .getAllByRole('button')
      .map((b) => b.getAttribute('aria-label'))
      .filter((n) => n?.startsWith('Open') === true || n?.startsWith('Download') === true);
    expect(names).toEqual(['Open build.log', 'Download build.log', 'Download hello.deb']);
    const open = screen.getByRole('button', { name: 'Open build.log' });
    expect(open.textContent).toBe('Open');
    expect(open.querySelector('svg.lucide-file-text')).not.toBeNull();
    expect(
      screen
        .getByRole('button', { name: 'Download build.log' })
        .querySelector('svg.lucide-download'),
    ).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Download hello.deb' })).toHaveProperty(
      'disabled',
      true,
    );
    fireEvent.click(open);
    fireEvent.click(screen.getByRole('button', { name: 'Download build.log' }));
    expect(viewed).toEqual(['build.log']);
    expect(downloaded).toEqual(['build.log']);
  });
});
