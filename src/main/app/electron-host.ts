/** What only Electron can do for the service: dialogs and the system browser. */
import { dialog, shell, type BrowserWindow } from 'electron';
import type { HostCapabilities } from '../composition-root';
import { isExternalHttpUrl } from './window';

export function electronHost(window: () => BrowserWindow | undefined): HostCapabilities {
  const openDialog = (
    options: Electron.OpenDialogOptions,
  ): Promise<Electron.OpenDialogReturnValue> => {
    const win = window();
    return win ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options);
  };
  return {
    transport: 'electron',
    platform: process.platform,
    openExternal: async (url) => {
      // The contract's schema already allows only http(s); this keeps it so if it changes.
      if (isExternalHttpUrl(url)) await shell.openExternal(url);
    },
    tell: (title, detail) => {
      const win = window();
      const options: Electron.MessageBoxOptions = { type: 'info', message: title, detail };
      void (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options));
    },
    pickFiles: async ({ multiple, folder, title }) => {
      const result = await openDialog({
        title: title ?? (folder ? 'Choose a folder' : 'Choose files'),
        properties: [
          folder ? 'openDirectory' : 'openFile',
          ...(multiple ? ['multiSelections' as const] : []),
        ],
      });
      return result.canceled ? [] : result.filePaths;
    },
    chooseDestination: async ({ kind, suggestedName }) => {
      if (kind === 'directory') {
        const result = await openDialog({
          title: 'Download into…',
          properties: ['openDirectory', 'createDirectory'],
        });
        return result.canceled ? null : (result.filePaths[0] ?? null);
      }
      const win = window();
      const options: Electron.SaveDialogOptions = { title: 'Save as…', defaultPath: suggestedName };
      const result = win
        ? await dialog.showSaveDialog(win, options)
        : await dialog.showSaveDialog(options);
      return result.canceled ? null : result.filePath || null;
    },
    // The user's own pick in main's dialog is the only way a program to run gets named.
    chooseProgram: async () => {
      const result = await openDialog({
        title: 'Choose the program to run when work completes',
        buttonLabel: 'Choose',
        properties: ['openFile', 'dontAddToRecent'],
      });
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
  };
}
