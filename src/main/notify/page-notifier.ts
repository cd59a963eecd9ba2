/**
 * Desktop notifications where main has no desktop (the web host): each one goes to the
 * page as `notification.desktop`, and the browser shows it through its Notifications API.
 * What a click does stays here, as with Electron's notifier: the page reports the click by
 * the notification's key (notifications.activate), and main runs the handlers it kept,
 * which open the work request or the log on the server that showed it.
 *
 * No buttons: a page's notifications cannot have any (the Notifications API offers them
 * only to notifications a service worker shows), so supportsActions is false and the
 * click opens the page where Retry is, as on Linux with Electron.
 */
import type { EventPayload } from '../../shared/contract';

/** How the page's notifications leave main: to the renderers, as an event. */
type EmitDesktop = (
  event: 'notification.desktop',
  payload: EventPayload<'notification.desktop'>,
) => void;
import type { DesktopNotification, NotificationHandlers, Notifier } from './notifier';

/**
 * How many notifications keep their click handlers: more than a desktop shows at once.
 * An older one's click says it is gone rather than keeping every handler forever.
 */
export const KEPT_NOTIFICATIONS = 200;

export class PageNotifier implements Notifier {
  readonly supportsActions = false;
  readonly #emit: EmitDesktop;
  /** By key, oldest first (a Map keeps insertion order; showing a key again moves it last). */
  readonly #handlers = new Map<string, NotificationHandlers>();

  constructor(emit: EmitDesktop) {
    this.#emit = emit;
  }

  show(notification: DesktopNotification, handlers: NotificationHandlers): void {
    this.#handlers.delete(notification.key);
    this.#handlers.set(notification.key, handlers);
    for (const key of this.#handlers.keys()) {
      if (this.#handlers.size <= KEPT_NOTIFICATIONS) break;
      this.#handlers.delete(key);
    }
    this.#emit('notification.desktop', {
      key: notification.key,
      title: notification.title,
      body: notification.body,
      workRequestId: notification.workRequestId,
      urgency: notification.urgency,
    });
  }

  /** The page's notification `key` was clicked: false when it is no longer kept. */
  activate(key: string): boolean {
    const handlers = this.#handlers.get(key);
    if (!handlers) return false;
    handlers.onClick();
    return true;
  }
}
