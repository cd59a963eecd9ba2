/**
 * OS integration around the window: the application menu, the tray icon (optional: GNOME
 * on Wayland has none, so nothing depends on it), and native notifications.
 */
import { join } from 'node:path';
import {
  Menu,
  Notification,
  Tray,
  nativeImage,
  shell,
  type MenuItemConstructorOptions,
} from 'electron';
import type { EventMessage } from '../bridge/event-outbox';
import { trayMenuTemplate, type TrayState, type TrayView } from './tray-state';

export interface ShellActions {
  readonly showWindow: () => void;
  readonly quit: () => void;
  /** Shows a work request's page in the window (tray menu items). */
  readonly openWorkRequest?: (id: number) => void;
}

export function menuTemplate(actions: ShellActions, dev: boolean): MenuItemConstructorOptions[] {
  return [
    {
      label: 'File',
      submenu: [{ label: 'Quit', accelerator: 'CmdOrCtrl+Q', click: actions.quit }],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(dev ? [{ role: 'toggleDevTools' } as const] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        {
          label: 'Debusine documentation',
          click: () => void shell.openExternal('https://freexian-team.pages.debian.net/debusine/'),
        },
      ],
    },
  ];
}

export function installMenu(actions: ShellActions, dev: boolean): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(actions, dev)));
}

export function trayIconPath(resources: string, state: TrayState): string {
  return join(resources, `tray-${state}.png`);
}

export interface TrayHandle {
  show(view: TrayView): void;
  destroy(): void;
}

/** A tray icon where the desktop has one; null where creating it fails. */
export function createTray(resources: string, actions: ShellActions): TrayHandle | null {
  let tray: Tray;
  try {
    tray = new Tray(nativeImage.createFromPath(trayIconPath(resources, 'idle')));
  } catch {
    return null;
  }
  // On Linux `click` is unreliable and a changed menu must be set again: the context menu is
  // rebuilt on every update, and it is what always works.
  tray.on('click', actions.showWindow);
  let shown: TrayState | null = null;
  return {
    show(view) {
      if (view.state !== shown) {
        tray.setImage(nativeImage.createFromPath(trayIconPath(resources, view.state)));
        shown = view.state;
      }
      tray.setToolTip(view.tooltip);
      tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(view, actions)));
    },
    destroy() {
      tray.destroy();
    },
  };
}

/** A native notification per completed work request, where the system has them. */
export function notifyCompletion(
  message: EventMessage<'workRequest.completed'>,
  onClick: () => void,
): void {
  if (!Notification.isSupported()) return;
  const { workRequestId, result } = message.payload;
  const notification = new Notification({
    title: `Work request #${String(workRequestId)}: ${result || 'completed'}`,
    body: 'Click to show it in Debusine Desktop.',
  });
  notification.on('click', onClick);
  notification.show();
}
