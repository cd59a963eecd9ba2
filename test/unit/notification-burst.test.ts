/**
 * A burst of completions (the replay after a night offline, a big workflow ending) must
 * not flood the desktop: past BURST_LIMIT within BURST_WINDOW_MS the gate holds the rest
 * and shows them as one summary when they stop coming. Every one is still recorded for
 * the app's list. The clock is faked; the notifier records what reached the desktop.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventMessage } from '../../src/main/bridge/event-outbox';
import type { CompletionNotification } from '../../src/main/notify/notifier';
import { RecordingNotifier } from '../../src/main/notify/notifier';
import {
  BURST_LIMIT,
  BURST_QUIET_MS,
  BURST_WINDOW_MS,
  NotificationGate,
  RECENT_LIMIT,
} from '../../src/main/notify/gate';
import type { NotificationPreferences } from '../../src/shared/contract';

function notification(id: number, failed = false): CompletionNotification {
  return {
    kind: 'completion',
    key: `wr-${String(id)}@t`,
    title: `${failed ? 'Failed' : 'Succeeded'}: noop #${String(id)}`,
    body: 'System',
    workRequestId: id,
    actions: [],
    urgency: failed ? 'critical' : 'normal',
    result: failed ? 'failure' : 'success',
    rootId: null,
    reason: null,
  };
}

describe('the notification gate in a burst', () => {
  let settings: NotificationPreferences;
  let inner: RecordingNotifier;
  let events: EventMessage[];
  let opened: number;
  let openedLists: (string | null)[];
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
    openedLists = [];
    clicked = [];
    gate = new NotificationGate({
      inner,
      settings: () => settings,
      recorded: (record) => events.push({ event: 'notification.shown', payload: record }),
      openList: (source) => {
        opened++;
        openedLists.push(source);
      },
    });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const show = (n: CompletionNotification): void => {
    gate.show(n, {
      onClick: () => clicked.push(n.workRequestId),
      onAction: () => undefined,
    });
  };

  it('shows what a server wrote with its invisible and reordering characters as marks', () => {
    const evil: CompletionNotification = {
      ...notification(1, true),
      title: 'Failed: workflow upload\u202Eexe.txt #1',
      body: 'sbuild \u2066hello\u2069 — build: make\u200b failed\nSystem',
    };
    show(evil);
    const [shown] = inner.shown;
    expect(shown?.notification.title).toBe('Failed: workflow upload<U+202E>exe.txt #1');
    expect(shown?.notification.body).toBe(
      'sbuild <U+2066>hello<U+2069> — build: make<U+200B> failed\nSystem',
    );
    // The app's own list shows what the desktop showed.
    expect(events[0]?.payload).toMatchObject({
      title: shown?.notification.title,
      body: shown?.notification.body,
    });
  });

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

  it('records what the notification carries: its result, workflow root, reason and live line', () => {
    const reason = {
      workRequestId: 6,
      what: 'sbuild hello 1.0 amd64',
      why: 'build: make: *** [debian/rules:4: build-arch] Error 1',
      log: { artifactId: 40, path: 'hello.build', line: 1234 },
    };
    show({ ...notification(7, true), result: 'error', rootId: 3, reason });
    show({ ...notification(8, true), result: 'temporary failure', rootId: null });
    // An early warning: the live log's line where the running build broke.
    show({ ...notification(9, true), result: 'failing', rootId: 3, liveLine: 41 });
    expect(gate.recent).toMatchObject([
      { workRequestId: 9, result: 'failing', rootId: 3, reason: null, liveLine: 41 },
      { workRequestId: 8, result: 'temporary failure', rootId: null, reason: null },
      { workRequestId: 7, result: 'error', rootId: 3, reason },
    ]);
    expect(gate.recent[1]).not.toHaveProperty('liveLine');
    expect(events.map((e) => e.payload)).toEqual([...gate.recent].reverse());
  });

  it('keeps the last RECENT_LIMIT records, and a summary of a burst of any length', () => {
    const total = RECENT_LIMIT * 50;
    for (let id = 1; id <= total; id++) show(notification(id, id % 2 === 0));
    expect(gate.recent).toHaveLength(RECENT_LIMIT);
    expect(gate.recent[0]?.workRequestId).toBe(total);
    vi.advanceTimersByTime(BURST_QUIET_MS);
    expect(inner.shown).toHaveLength(BURST_LIMIT + 1);
    const held = total - BURST_LIMIT;
    expect(inner.shown[BURST_LIMIT]?.notification).toMatchObject({
      title: `${String(held)} more work requests finished, ${String(total / 2 - 1)} failed`,
      body: `Failed: noop #4\nSucceeded: noop #5\nFailed: noop #6\nand ${String(held - 3)} more`,
      workRequestId: total,
    });
  });

  it("sums up one server's burst at a time, each summary opening its own server's list", () => {
    const a = gate.forSource('server-a');
    const b = gate.forSource('server-b');
    const handlers = { onClick: () => undefined, onAction: () => undefined };
    for (let id = 1; id <= BURST_LIMIT + 3; id++) a.show(notification(id), handlers);
    // The app moved to server B, whose watcher notifies while A's burst is held.
    b.show(notification(101), handlers);
    b.show(notification(102), handlers);
    vi.advanceTimersByTime(BURST_QUIET_MS);

    const titles = inner.shown.map((s) => s.notification.title);
    expect(titles).toEqual([
      'Succeeded: noop #1',
      'Succeeded: noop #2',
      'Succeeded: noop #3',
      '3 more work requests finished',
      '2 more work requests finished',
    ]);
    expect(inner.shown[3]?.notification.body).not.toContain('#101');
    inner.shown[3]?.handlers.onClick();
    inner.shown[4]?.handlers.onClick();
    expect(openedLists).toEqual(['server-a', 'server-b']);
    // Each record names the server whose watcher showed it.
    expect(gate.recent.map((r) => [r.workRequestId, r.serverId])).toEqual([
      [102, 'server-b'],
      [101, 'server-b'],
      [6, 'server-a'],
      [5, 'server-a'],
      [4, 'server-a'],
      [3, 'server-a'],
      [2, 'server-a'],
      [1, 'server-a'],
    ]);
  });
});
