// @vitest-environment happy-dom
/**
 * The artifact page's downloads: a running one offers Cancel, which asks main to stop that
 * job; a cancelled one says nothing was written, and offers Cancel no more.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DownloadJob } from '@shared/contract';
import { DownloadList } from '@renderer/screens/artifacts/download-list';

afterEach(cleanup);

function job(state: DownloadJob['state']): DownloadJob {
  return {
    jobId: 'j1',
    artifactId: 7,
    state,
    receivedBytes: 1024,
    totalBytes: 4096,
    error: state === 'cancelled' ? { code: 'cancelled', message: 'cancelled' } : null,
  };
}

describe('the download list', () => {
  it('cancels a running download by its row', () => {
    const onCancel = vi.fn();
    render(
      <DownloadList
        rows={[
          {
            key: 'file:a.log',
            label: 'a.log',
            job: job('running'),
            handedToBrowser: false,
            error: null,
          },
        ]}
        onDismiss={() => undefined}
        onCancel={onCancel}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cancel a.log' }));
    expect(onCancel).toHaveBeenCalledWith('file:a.log');
  });

  it('says a cancelled download wrote nothing, and offers no Cancel', () => {
    render(
      <DownloadList
        rows={[
          {
            key: 'file:a.log',
            label: 'a.log',
            job: job('cancelled'),
            handedToBrowser: false,
            error: null,
          },
        ]}
        onDismiss={() => undefined}
        onCancel={() => undefined}
      />,
    );
    expect(screen.getByText(/Cancelled · nothing was written/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel a.log' })).toBeNull();
  });
});
