/**
 * A burst of completions (the replay after a night offline, a big workflow ending) must
 * not flood the desktop: past BURST_LIMIT within BURST_WINDOW_MS the gate holds the rest
 * and shows them as one summary when they stop coming. Every one is still recorded for
 * the app's list. The clock is faked; the notifier records what reached the desktop.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventMessage } from '../../src/main/bridge/event-outbox';
import type { DesktopNotification } from '../../src/main/notify/notifier';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import {
  BURST_LIMIT,
  BURST_QUIET_MS,
  BURST_WINDOW_MS,
  NotificationGate,
} from '../../src/main/service/notification-settings';
import type { NotificationPreferences } from '../../src/shared/contract';

function notification(id: number, failed = false): DesktopNotification {
  return {
    key: `wr-${String(id)}@t`,
    title: `${failed ? 'Failed' : 'Succeeded'}: noop #${String(id)}`,
    body: 'System',
    workRequestId: id,
    actions: [],
    urgency: failed ? 'critical' : 'normal',
  };
}

describe('the notification gate in a burst', () => {
  let settings: NotificationPreferences;
  let inner: RecordingNotifier;
  let events: EventMessage[];
  let opened: number;
  let clicked: number[];
  let gate: NotificationGate;

  beforeEach(() => {
    vi.useFakeTimers();
    settings = {
      mode: 'watched',
      workspaces: [],
      failuresOnly: false,
      snoozedUntil: null,
    };
    inner = new RecordingNotifier();
    events = [];
    opened = 0;
    clicked = [];
    gate = new NotificationGate({
      inner,
      settings: () => settings,
      emit: (event, payload) => events.push({ event, payload }),
      describe: (n) => ({ result: n.urgency === 'critical' ? 'failure' : 'success', rootId: null }),
      openList: () => {
        opened++;
      },
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const show = (n: DesktopNotification): void => {
    gate.show(n, {
      onClick: () => clicked.push(n.workRequestId),
      onAction: () => undefined,
    });
  };

  it('shows the first few, then one summary of the rest once they stop coming', () => {
    for (let id = 1; id <= 12; id++) {
      show(notification(id, id % 4 === 0));
      vi.advanceTimersByTime(100);
    }
    expect(inner.shown.map((s) => s.notification.workRequestId)).toEqual([1, 2, 3]);
    // Every one is in the app's list at once.
    expect(gate.recent.map((r) => r.workRequestId)).toHaveLength(12);
    expect(events.filter((e) => e.event === 'notification.shown')).toHaveLength(12);

    vi.advanceTimersByTime(BURST_QUIET_MS);
    expect(inner.shown).toHaveLength(BURST_LIMIT + 1);
    const summary = inner.shown[BURST_LIMIT];
    expect(summary?.notification).toMatchObject({
      title: '9 more work requests finished, 3 failed',
      body: 'Failed: noop #4\nSucceeded: noop #5\nSucceeded: noop #6\nand 6 more',
      urgency: 'critical',
      workRequestId: 12,
    });
    // The summary opens the list; the ones shown alone open their work request.
    summary?.handlers.onClick();
    inner.shown[0]?.handlers.onClick();
    expect(opened).toBe(1);
    expect(clicked).toEqual([1]);
  });

  it('shows a lone straggler as itself, and starts afresh after a quiet window', () => {
    for (let id = 1; id <= BURST_LIMIT + 1; id++) show(notification(id));
    vi.advanceTimersByTime(BURST_QUIET_MS);
    expect(inner.shown.map((s) => s.notification.title)).toEqual([
      'Succeeded: noop #1',
      'Succeeded: noop #2',
      'Succeeded: noop #3',
      'Succeeded: noop #4',
    ]);
    inner.shown[3]?.handlers.onClick();
    expect(clicked).toEqual([4]);

    vi.advanceTimersByTime(BURST_WINDOW_MS);
    show(notification(5));
    expect(inner.shown).toHaveLength(5);
  });

  it('holds nothing back when snoozed or filtered: those are not shown at all', () => {
    settings = { ...settings, failuresOnly: true };
    for (let id = 1; id <= 10; id++) show(notification(id));
    vi.advanceTimersByTime(BURST_QUIET_MS);
    expect(inner.shown).toEqual([]);
    expect(gate.recent).toEqual([]);
  });
});
