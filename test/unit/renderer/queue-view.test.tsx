// @vitest-environment happy-dom
/**
 * The Queue tab: the server's counts per architecture, an architecture where nothing can
 * start marked as such, and an older server's lack of counts said rather than shown as none.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { QueueView } from '@renderer/screens/work-requests/queue-view';
import { WithServer } from './support/with-server';

afterEach(cleanup);

describe('the Queue tab', () => {
  it('shows each architecture’s workers and work, and where nothing can start', async () => {
    render(
      <WithServer
        handlers={{
          'queue.status': () => ({
            architectures: [
              {
                name: 'amd64',
                workers: { registered: 2, connected: 2, idle: 0, busy: 2 },
                pending: 4,
                running: 2,
              },
              {
                name: 'arm64',
                workers: { registered: 1, connected: 0, idle: 0, busy: 0 },
                pending: 1,
                running: 0,
              },
            ],
            unavailable: null,
          }),
        }}
      >
        <QueueView />
      </WithServer>,
    );
    const table = await screen.findByRole('table', { name: 'Queue per architecture' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'ArchitectureWorkers connectedBusyIdlePendingRunning',
      'amd642 of 22042',
      'arm64 no worker connected: nothing starts0 of 10010',
    ]);
  });

  it('says an older server does not count its queue', async () => {
    render(
      <WithServer
        handlers={{
          'queue.status': () => ({
            architectures: [],
            unavailable: 'serviceStatus is not offered by 0.11',
          }),
        }}
      >
        <QueueView />
      </WithServer>,
    );
    const empty = await screen.findByRole('region', {
      name: 'The server does not count its queue',
    });
    expect(empty.textContent).toContain('serviceStatus is not offered by 0.11');
  });
});
