/**
 * The tray's refresh (src/main/app/tray-refresh.ts) against a tray that behaves as
 * Electron's does once destroyed (every method throws "Tray is destroyed", as the fake
 * electron's FakeTray): a quit while a refresh is reading the snapshot shows nothing
 * afterwards, and a burst of events makes one read.
 */
import { describe, expect, it, vi } from 'vitest';
import { TRAY_EVENTS, trayRefresher } from '../../src/main/app/tray-refresh';
import { FakeTray } from '../support/fake-electron';
import { fakeTimersInEachTest } from '../support/fake-timers';

fakeTimersInEachTest();

describe("the tray's refresh", () => {
  it('shows nothing once stopped, not even what a read under way brings back', async () => {
    const tray = new FakeTray();
    let answer = (_text: string): void => undefined;
    const reading = new Promise<string>((resolve) => {
      answer = resolve;
    });
    const shown: string[] = [];
    const updates = trayRefresher({
      read: () => reading,
      show: (text) => {
        tray.setToolTip(text);
        shown.push(text);
      },
      delayMs: 300,
    });
    updates.refresh();
    await vi.advanceTimersByTimeAsync(300);
    // The quit: the refresher is stopped, then the tray destroyed, while the read waits.
    updates.stop();
    tray.destroy();
    answer('2 watched');
    await vi.runAllTimersAsync();
    expect(shown).toEqual([]);
    // Refreshes asked after the quit read nothing.
    const read = vi.fn(() => Promise.resolve('x'));
    const later = trayRefresher({ read, show: () => undefined, delayMs: 300 });
    later.stop();
    later.refresh();
    await vi.runAllTimersAsync();
    expect(read).not.toHaveBeenCalled();
  });

  it('reads once for a burst of events, and shows what it read', async () => {
    const read = vi.fn(() => Promise.resolve('1 running'));
    const shown: string[] = [];
    const updates = trayRefresher({ read, show: (s) => shown.push(s), delayMs: 300 });
    for (let i = 0; i < 5; i++) {
      updates.refresh();
      await vi.advanceTimersByTimeAsync(100);
    }
    await vi.advanceTimersByTimeAsync(300);
    expect(read).toHaveBeenCalledTimes(1);
    expect(shown).toEqual(['1 running']);
  });

  it('reads again after the events that change what it counts, a step that waits for the user included', () => {
    // A step starts waiting with no completion from the server: main finds it by reading
    // and shows a notification, which is the only event that says so.
    for (const event of ['workRequest.completed', 'workRequests.changed', 'notification.shown']) {
      expect(TRAY_EVENTS.has(event), event).toBe(true);
    }
    expect(TRAY_EVENTS.has('upload.progress')).toBe(false);
  });
});
