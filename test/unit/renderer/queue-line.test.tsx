// @vitest-environment happy-dom
/**
 * The queue line on a step's page: a pending step's place and usual wait, a running step's
 * time against its last success (the bar short of its end when it runs longer), what the
 * server could not say, and nothing asked for a step that has ended.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueueEstimate } from '@shared/contract';
import { QueueLine } from '@renderer/screens/work-requests/queue-line';
import { WithServer } from './support/with-server';
import { pendingBuildFixture } from '../../support/work-requests';

afterEach(cleanup);

const wr = pendingBuildFixture;

const ESTIMATE: QueueEstimate = {
  workRequestId: 50,
  position: {
    architecture: 'amd64',
    ahead: 3,
    hidden: 0,
    truncated: false,
    workers: { registered: 2, connected: 2, idle: 0, busy: 2 },
  },
  usualStart: { kind: 'within', seconds: 240, samples: 9 },
  usualRun: { seconds: 360, endedAt: null, workRequestId: 12 },
  historyAsked: true,
  missing: [],
};

describe('the queue line', () => {
  it('says where a pending step stands and how long such steps wait and run', async () => {
    render(
      <WithServer handlers={{ 'queue.estimate': () => ESTIMATE }}>
        <QueueLine wr={wr({})} />
      </WithServer>,
    );
    const line = await screen.findByRole('region', { name: 'Queue' });
    expect(line.textContent).toContain('3 ahead of you on amd64 (2 of 2 workers busy).');
    expect(line.textContent).toContain(
      'Usually starts within 4 min (half of the last 9 sbuild starts).',
    );
    expect(line.textContent).toContain('The last success took 6 min.');
  });

  it('measures a running step against the last success, and never fills the bar', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: Date.parse('2026-11-29T10:43:00Z') });
    try {
      render(
        <WithServer handlers={{ 'queue.estimate': () => ESTIMATE }}>
          <QueueLine wr={wr({ status: 'running', started_at: '2026-11-29T10:40:00Z' })} />
        </WithServer>,
      );
      const bar = await screen.findByRole('progressbar', { name: 'Against the last success' });
      expect(bar.getAttribute('aria-valuetext')).toBe('50%');
      expect(screen.getByRole('region', { name: 'Queue' }).textContent).toContain(
        'Running for 3 min of about 6 min (the last success).',
      );
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      expect(bar.getAttribute('aria-valuetext')).toBe('overdue');
      expect(screen.getByRole('region', { name: 'Queue' }).textContent).toContain(
        'longer than the last success (6 min)',
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('says what the server could not tell, and asks nothing for a step that has ended', async () => {
    const asked = vi.fn(() => ({
      ...ESTIMATE,
      position: null,
      usualRun: null,
      missing: ["the queue's counts: serviceStatus is not offered by 0.11"],
    }));
    render(
      <WithServer handlers={{ 'queue.estimate': asked }}>
        <QueueLine wr={wr({})} />
        <QueueLine wr={wr({ id: 51, status: 'completed', result: 'success' })} />
      </WithServer>,
    );
    const line = await screen.findByRole('region', { name: 'Queue' });
    expect(line.textContent).toContain(
      "Not known: the queue's counts: serviceStatus is not offered by 0.11.",
    );
    expect(line.textContent).toContain('No earlier success of this step to measure it by.');
    expect(screen.getAllByRole('region', { name: 'Queue' })).toHaveLength(1);
    expect(asked).toHaveBeenCalledTimes(1);
  });

  it('says when a running workflow is expected to end, then that it runs longer', async () => {
    const now = Date.parse('2026-11-29T14:10:00Z');
    vi.useFakeTimers({ shouldAdvanceTime: true, now });
    const root = wr({
      id: 90,
      task_type: 'Workflow',
      task_name: 'debian_pipeline',
      parent: null,
      status: 'running',
      started_at: '2026-11-29T14:00:00Z',
      scheduler_tags_required: [],
    });
    const expected = new Date(Date.parse('2026-11-29T14:24:00Z')).toLocaleTimeString(undefined, {
      hour: '2-digit',
      minute: '2-digit',
    });
    try {
      render(
        <WithServer
          handlers={{
            'queue.estimate': () => ({
              ...ESTIMATE,
              position: null,
              usualStart: null,
              usualRun: { seconds: 1440, endedAt: null, workRequestId: 74 },
            }),
          }}
        >
          <QueueLine wr={root} />
        </WithServer>,
      );
      const line = await screen.findByRole('region', { name: 'Expected finish' });
      expect(line.textContent).toContain(
        `Expected to finish around ${expected}: the last success of this workflow for this package took 24 min, waits for people included.`,
      );
      await vi.advanceTimersByTimeAsync(20 * 60_000);
      // The fake clock also moves with real time: some seconds may have passed.
      expect(line.textContent).toMatch(
        /Running for 30 min( \d+ s)?: longer than the last success of this workflow for this package \(24 min\)\./,
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('says a workflow without an earlier success has no finish time, and a sub-workflow none at all', async () => {
    const asked = vi.fn(() => ({ ...ESTIMATE, position: null, usualStart: null, usualRun: null }));
    const workflow = (extra: Record<string, unknown>) =>
      wr({
        task_type: 'Workflow',
        status: 'running',
        started_at: '2026-11-29T14:00:00Z',
        scheduler_tags_required: [],
        ...extra,
      });
    render(
      <WithServer handlers={{ 'queue.estimate': asked }}>
        <QueueLine wr={workflow({ id: 90, parent: null })} />
        <QueueLine wr={workflow({ id: 91, parent: 90, workflow_root: 90 })} />
      </WithServer>,
    );
    const line = await screen.findByRole('region', { name: 'Expected finish' });
    expect(line.textContent).toContain(
      'No earlier success of this workflow for this package here to say when it ends.',
    );
    expect(asked).toHaveBeenCalledTimes(1);
  });
});
