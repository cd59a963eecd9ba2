/**
 * The Electron notifier against the fake `electron` (test/support/fake-electron.ts), whose
 * desktop holds each notification shown and only a weak reference to the app's object, as
 * Electron's native notification does: the garbage collector takes an object the app let
 * go, and a click on its notification then reaches nobody.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesktopNotification } from '../../src/main/notify/notifier';
import { createFakeElectron, mockedElectron, type FakeElectron } from '../support/fake-electron';

const fake = mockedElectron;
vi.mock('electron', async () => (await import('../support/fake-electron')).mockedElectronModule());

const { ElectronNotifier, MAX_LIVE_NOTIFICATIONS } =
  await import('../../src/main/app/electron-notifier');

function notification(key: string): DesktopNotification {
  return {
    key,
    title: 'Failed: noop #1',
    body: 'Workspace System · result: failure',
    workRequestId: 1,
    actions: [
      { id: 'retry', label: 'Retry' },
      { id: 'open-in-browser', label: 'Open in browser' },
    ],
    urgency: 'critical',
  };
}

let e: FakeElectron;
beforeEach(() => {
  e = createFakeElectron({ userData: '/nonexistent' });
  fake.current = e;
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the Electron notifier', () => {
  it('shows the notification, and routes clicks and actions', () => {
    const notifier = new ElectronNotifier();
    const onClick = vi.fn();
    const onAction = vi.fn();
    notifier.show(notification('wr-1@t'), { onClick, onAction });
    const [shown] = e.notifications.desktop;
    expect(shown?.options).toMatchObject({ title: 'Failed: noop #1', urgency: 'critical' });
    expect(shown?.click()).toBe(true);
    expect(onClick).toHaveBeenCalledOnce();
    if (notifier.supportsActions) {
      expect(shown?.options.actions).toEqual([
        { type: 'button', text: 'Retry' },
        { type: 'button', text: 'Open in browser' },
      ]);
    } else {
      // Linux: no buttons; the app's detail view has Retry and Open in browser.
      expect(shown?.options.actions).toEqual([]);
    }
  });

  it('keeps each notification on screen, so that a click after a garbage collection still works', async () => {
    const notifier = new ElectronNotifier();
    const onClick = vi.fn();
    notifier.show(notification('wr-1@t'), { onClick, onAction: () => undefined });
    notifier.show(notification('wr-2@t'), { onClick, onAction: () => undefined });
    await e.collect();
    const [first, second] = e.notifications.desktop;
    expect(first?.alive).toBe(true);
    expect(second?.alive).toBe(true);
    expect(second?.click()).toBe(true);
    expect(onClick).toHaveBeenCalledOnce();
  });

  it('lets a notification go once it is clicked or closed', async () => {
    const notifier = new ElectronNotifier();
    const handlers = { onClick: () => undefined, onAction: () => undefined };
    notifier.show(notification('wr-1@t'), handlers);
    notifier.show(notification('wr-2@t'), handlers);
    notifier.show(notification('wr-3@t'), handlers);
    const [clicked, dismissed, open] = e.notifications.desktop;
    clicked?.click();
    dismissed?.dismiss();
    await e.collect();
    expect(clicked?.alive).toBe(false);
    expect(dismissed?.alive).toBe(false);
    expect(open?.alive).toBe(true);
  });

  it('replaces the notification of the same key, and keeps no more than the bound', async () => {
    const notifier = new ElectronNotifier();
    const handlers = { onClick: () => undefined, onAction: () => undefined };
    notifier.show(notification('same'), handlers);
    notifier.show(notification('same'), handlers);
    const [replaced, replacing] = e.notifications.desktop;
    expect(replaced?.closed).toBe(true);
    expect(replacing?.closed).toBe(false);
    for (let n = 0; n < MAX_LIVE_NOTIFICATIONS + 5; n++) {
      notifier.show(notification(`wr-${String(n)}`), handlers);
    }
    await e.collect();
    const alive = e.notifications.desktop.filter((entry) => entry.alive);
    expect(alive).toHaveLength(MAX_LIVE_NOTIFICATIONS);
    // The newest are the ones kept.
    expect(e.notifications.desktop.at(-1)?.alive).toBe(true);
    expect(replacing?.alive).toBe(false);
  });

  it('shows nothing where the desktop has no notifications, and says so once', () => {
    e = createFakeElectron({ userData: '/nonexistent', notificationsSupported: false });
    fake.current = e;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const notifier = new ElectronNotifier();
    const handlers = { onClick: () => undefined, onAction: () => undefined };
    notifier.show(notification('wr-1@t'), handlers);
    notifier.show(notification('wr-2@t'), handlers);
    expect(e.notifications.desktop).toEqual([]);
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]?.[0]).toContain('shows no notifications');
  });
});

describe('the fake’s desktop', () => {
  it('loses the click of a notification the app did not keep', async () => {
    const onClick = vi.fn();
    // What the app did before: a Notification made, shown, and referenced by nothing.
    (() => {
      const shown = new e.module.Notification({ title: 'dropped' });
      shown.on('click', onClick);
      shown.show();
    })();
    await e.collect();
    const [entry] = e.notifications.desktop;
    expect(entry?.alive).toBe(false);
    expect(entry?.click()).toBe(false);
    expect(onClick).not.toHaveBeenCalled();
  });
});
