/** What only Electron can do for the service: dialogs and the system browser. */
import { dialog, shell, type BrowserWindow } from 'electron';
import type { HostCapabilities } from '../service';
import { isExternalHttpUrl } from './window';

export function electronHost(window: () => BrowserWindow | undefined): HostCapabilities {
  return {
    transport: 'electron',
    platform: process.platform,
    openExternal: async (url) => {
      // The contract's schema already allows only http(s); this keeps it so if it changes.
      if (isExternalHttpUrl(url)) await shell.openExternal(url);
    },
    pickFiles: async ({ multiple, title }) => {
      const win = window();
      const options: Electron.OpenDialogOptions = {
        title: title ?? 'Choose files',
        properties: multiple ? ['openFile', 'multiSelections'] : ['openFile'],
      };
      const result = win
        ? await dialog.showOpenDialog(win, options)
        : await dialog.showOpenDialog(options);
      return result.canceled ? [] : result.filePaths;
    },
    chooseDestination: async ({ kind, suggestedName }) => {
      const win = window();
      if (kind === 'directory') {
        const options: Electron.OpenDialogOptions = {
          title: 'Download into…',
          properties: ['openDirectory', 'createDirectory'],
        };
        const result = win
          ? await dialog.showOpenDialog(win, options)
          : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      }
      const options: Electron.SaveDialogOptions = { title: 'Save as…', defaultPath: suggestedName };
      const result = win
        ? await dialog.showSaveDialog(win, options)
        : await dialog.showSaveDialog(options);
      return result.canceled ? null : result.filePath || null;
    },
  };
}
