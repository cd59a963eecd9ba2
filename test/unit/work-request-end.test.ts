/**
 * One reading of a work request's status and result for the whole app: `aborted` is an
 * end, and an unsuccessful one, wherever ends are counted (the tray, the watch list's
 * summary) or told (the notification's words).
 */
import { describe, expect, it } from 'vitest';
import { trayView, updateTray, INITIAL_TRAY } from '../../src/main/app/tray-state';
import { completionNotification } from '../../src/main/notify/completion-notification';
import type { WatchEntry } from '../../src/shared/contract';
import {
  endedUnsuccessfully,
  endOf,
  failedByItself,
  hasEnded,
  isActive,
  isUnsuccessfulEnd,
} from '../../src/shared/results/end';

describe('how a work request ended', () => {
  it.each([
    ['pending', '', null, false],
    ['blocked', '', null, false],
    ['running', '', null, false],
    ['completed', 'success', 'success', false],
    ['completed', 'skipped', 'skipped', false],
    ['completed', 'failure', 'failure', true],
    ['completed', 'error', 'error', true],
    ['completed', 'temporary failure', 'temporary failure', true],
    ['completed', 'something new', 'unknown', true],
    ['aborted', '', 'aborted', true],
  ] as const)('%s / %j: %j', (status, result, end, bad) => {
    expect(endOf({ status, result })).toBe(end);
    expect(hasEnded(status)).toBe(end !== null);
    expect(isActive(status)).toBe(end === null);
    expect(endedUnsuccessfully({ status, result })).toBe(bad);
    if (end !== null) expect(isUnsuccessfulEnd(end)).toBe(bad);
    // Aborted ones did not fail by themselves: their own output says nothing of why.
    expect(failedByItself({ status, result })).toBe(bad && status === 'completed');
  });
});

describe('the words of an end', () => {
  const about = { taskName: 'debian_pipeline', taskType: 'Workflow', workspace: 'System' };
  it.each([
    ['completed', 'success', 'Succeeded', 'result: success', 'normal'],
    ['completed', 'failure', 'Failed', 'result: failure', 'critical'],
    ['completed', 'error', 'Errored', 'result: error', 'critical'],
    ['aborted', '', 'Aborted', 'aborted', 'critical'],
  ] as const)('%s %j: "%s"', (status, result, word, how, urgency) => {
    const n = completionNotification(
      { workRequestId: 40, completedAt: '2026-11-26T02:50:34Z', result, status },
      about,
      null,
      true,
    );
    expect(n.title).toBe(`${word}: workflow debian_pipeline #40`);
    expect(n.body).toBe(`Workspace System · ${how}`);
    expect(n.urgency).toBe(urgency);
    expect(n.result).toBe(endOf({ status, result }));
    // What is retried: an aborted workflow is, like a failed one.
    expect(n.actions.some((a) => a.id === 'retry')).toBe(urgency === 'critical');
  });
});

describe('the tray', () => {
  const entry = (status: string | null, result: string | null): WatchEntry => ({
    workRequestId: 40,
    label: 'debian_pipeline',
    addedAt: '2026-11-26T02:50:00Z',
    lastStatus: status,
    lastResult: result,
    source: 'started',
    taskType: 'Workflow',
    workspace: 'System',
    rootId: null,
  });
  const snapshot = (watched: WatchEntry[]) => ({
    online: true,
    signedIn: true,
    watched,
    needsInput: 0,
  });

  it('counts an aborted workflow as ended, and as a failure to look at', () => {
    const running = updateTray(INITIAL_TRAY, snapshot([entry('running', '')]));
    expect(trayView(running).counts).toMatchObject({ running: 1, failed: 0 });
    const aborted = updateTray(running, snapshot([entry('aborted', '')]));
    const view = trayView(aborted);
    expect(view.counts).toMatchObject({ running: 0, failed: 1 });
    expect(view.state).toBe('failed');
    expect(view.items[0]?.label).toBe('#40 debian_pipeline: aborted');
  });
});
