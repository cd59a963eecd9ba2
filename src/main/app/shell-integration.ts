/**
 * OS integration around the window: the application menu and the tray icon (optional: GNOME
 * on Wayland has none, so nothing depends on it). Native notifications are
 * electron-notifier.ts's.
 */
import { join } from 'node:path';
import { Menu, Tray, nativeImage, shell, type MenuItemConstructorOptions } from 'electron';
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
