/**
 * Desktop notifications through Electron. Buttons (Retry, Open in browser) exist on macOS
 * and Windows; on Linux the notification server may not show them, so none are offered
 * and clicking opens the work request in the app, where both actions are.
 */
import { Notification } from 'electron';
import type { DesktopNotification, NotificationHandlers, Notifier } from '../notify/notifier';

export class ElectronNotifier implements Notifier {
  readonly supportsActions = process.platform === 'darwin' || process.platform === 'win32';
  /** Electron drops the click handlers of a notification that is garbage-collected. */
  readonly #live = new Map<string, Notification>();

  static isSupported(): boolean {
    return Notification.isSupported();
  }

  show(notification: DesktopNotification, handlers: NotificationHandlers): void {
    this.#live.get(notification.key)?.close();
    const actions = this.supportsActions ? notification.actions : [];
    const shown = new Notification({
      title: notification.title,
      body: notification.body,
      urgency: notification.urgency,
      timeoutType: notification.urgency === 'critical' ? 'never' : 'default',
      actions: actions.map((action) => ({ type: 'button' as const, text: action.label })),
    });
    shown.on('click', () => {
      handlers.onClick();
    });
    shown.on('action', (details) => {
      const action = actions[details.actionIndex];
      if (action) handlers.onAction(action.id);
    });
    shown.on('close', () => {
      if (this.#live.get(notification.key) === shown) this.#live.delete(notification.key);
    });
    this.#live.set(notification.key, shown);
    shown.show();
  }
}
