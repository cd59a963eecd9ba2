/**
 * Desktop notifications where the app runs in a browser (the web host): main sends each
 * one as `notification.desktop`, and the page shows it through the browser's Notifications
 * API once the user has allowed that. Browsers grant the permission only to a request made
 * from a click, and a request the user dismisses counts against the page; so the app asks
 * from one button in Settings, never by itself.
 *
 * The title and body are main's (the texts Electron shows) and are given to the browser as
 * plain strings: a notification shows no markup.
 */
import { useSyncExternalStore } from 'react';
import type { PageNotification } from '@shared/contract';

/** The browser's answer so far, or `unsupported` where it has no Notifications API. */
export type PagePermission = NotificationPermission | 'unsupported';

function notificationApi(): typeof Notification | undefined {
  return typeof Notification === 'undefined' ? undefined : Notification;
}

export function pagePermission(): PagePermission {
  return notificationApi()?.permission ?? 'unsupported';
}

const listeners = new Set<() => void>();
let watching = false;

function changed(): void {
  for (const listener of [...listeners]) listener();
}

/**
 * The permission can change outside the app too (the browser's site settings): the
 * Permissions API tells of that, where the browser has it.
 */
function watchPermission(): void {
  if (watching || typeof navigator === 'undefined' || !('permissions' in navigator)) return;
  watching = true;
  navigator.permissions.query({ name: 'notifications' }).then(
    (status) => {
      status.addEventListener('change', changed);
    },
    () => undefined,
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  watchPermission();
  return () => {
    listeners.delete(listener);
  };
}

/** The permission, kept current. */
export function usePagePermission(): PagePermission {
  return useSyncExternalStore(subscribe, pagePermission);
}

/** Asks the browser; call it from the click that asks for it. */
export async function requestPagePermission(): Promise<PagePermission> {
  const api = notificationApi();
  if (!api) return 'unsupported';
  const answer = await api.requestPermission();
  changed();
  return answer;
}

/**
 * Shows one of main's notifications, if the browser allows it; `onClick` runs when the
 * user clicks it, after the app's window has come to the front. A failure stays on screen
 * until dismissed, as it does on the desktop.
 */
export function showPageNotification(
  note: PageNotification,
  onClick: () => void,
): Notification | null {
  const api = notificationApi();
  if (api?.permission !== 'granted') return null;
  let shown: Notification;
  try {
    shown = new api(note.title, {
      body: note.body,
      // The same key again replaces the notification instead of adding one.
      tag: note.key,
      requireInteraction: note.urgency === 'critical',
    });
  } catch {
    // Some browsers show page notifications only from a service worker, and refuse here.
    return null;
  }
  shown.addEventListener('click', () => {
    window.focus();
    shown.close();
    onClick();
  });
  return shown;
}
