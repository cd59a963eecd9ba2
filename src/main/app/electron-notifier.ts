/**
 * Desktop notifications through Electron. Buttons (Retry, Open in browser) exist on macOS
 * and Windows; on Linux the notification server may not show them, so none are offered
 * and clicking opens the work request in the app, where both actions are.
 */
import { Notification } from 'electron';
import type { DesktopNotification, NotificationHandlers, Notifier } from '../notify/notifier';

/**
 * How many shown notifications are kept at most. One is let go when it is clicked or closed,
 * but Electron says `close` "is not guaranteed to be emitted in all cases where the
 * notification is closed": the oldest are let go past this many, long gone from the screen.
 */
export const MAX_LIVE_NOTIFICATIONS = 100;

export class ElectronNotifier implements Notifier {
  readonly supportsActions = process.platform === 'darwin' || process.platform === 'win32';
  /**
   * Each notification on screen, until it is clicked or closed: Electron's native
   * notification does not keep its JavaScript object alive, and once the garbage collector
   * takes that object a click on the notification reaches no handler.
   */
  readonly #live = new Map<string, Notification>();
  #saidUnsupported = false;

  show(notification: DesktopNotification, handlers: NotificationHandlers): void {
    // No notification server (a desktop without one, a bare window manager): the app's own
    // list of notifications and the tray still show it.
    if (!Notification.isSupported()) {
      if (!this.#saidUnsupported) {
        this.#saidUnsupported = true;
        console.warn(
          'This desktop shows no notifications: they are listed in the app, not shown on the desktop.',
        );
      }
      return;
    }
    this.#live.get(notification.key)?.close();
    const actions = this.supportsActions ? notification.actions : [];
    const shown = new Notification({
      title: notification.title,
      body: notification.body,
      urgency: notification.urgency,
      timeoutType: notification.urgency === 'critical' ? 'never' : 'default',
      actions: actions.map((action) => ({ type: 'button' as const, text: action.label })),
    });
    const letGo = (): void => {
      if (this.#live.get(notification.key) === shown) this.#live.delete(notification.key);
    };
    shown.on('click', () => {
      letGo();
      handlers.onClick();
    });
    shown.on('action', (details) => {
      letGo();
      const action = actions[details.actionIndex];
      if (action) handlers.onAction(action.id);
    });
    shown.on('close', letGo);
    shown.on('failed', letGo);
    // Set anew, so that the map's order is the order they were shown in.
    this.#live.delete(notification.key);
    this.#live.set(notification.key, shown);
    for (const key of this.#live.keys()) {
      if (this.#live.size <= MAX_LIVE_NOTIFICATIONS) break;
      this.#live.delete(key);
    }
    shown.show();
  }
}
