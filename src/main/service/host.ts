/**
 * What differs between the hosts (Electron, the web host): the host process's own dialogs
 * and shell. A request a host cannot offer answers `unsupported`, saying what to do instead.
 */
import type { AppCapabilities, RequestChannel } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';
import type { ActivateNotification, ChooseProgram } from './notification-handlers';

/** What only the host process can do (Electron dialogs and shell); the web host has less. */
export interface HostCapabilities {
  transport: 'electron' | 'web';
  platform: string;
  openExternal?: (url: string) => Promise<void>;
  /**
   * Shows an open dialog for files, or for folders with `folder`; absolute paths of what
   * was chosen, empty when cancelled.
   */
  pickFiles?: (options: {
    multiple: boolean;
    folder: boolean;
    title?: string | undefined;
  }) => Promise<string[]>;
  /** Shows a save (or folder) dialog; the chosen path, or null when cancelled. */
  chooseDestination?: (options: {
    kind: 'file' | 'directory';
    suggestedName?: string | undefined;
  }) => Promise<string | null>;
  /**
   * Shows an open dialog for the program to run on completion; its path, or null when
   * cancelled. Without it, that program is only ever set by editing its file.
   */
  chooseProgram?: ChooseProgram;
  /**
   * Where the page shows the desktop notifications (the web host's PageNotifier): runs
   * what a click the page reports does.
   */
  activateNotification?: ActivateNotification;
  /**
   * Tells the user why a link or a notification opened nothing (its server is not one of
   * the app's); without it, the reason goes to the log.
   */
  tell?: (title: string, detail: string) => void;
}

export function notOnThisHost(channel: RequestChannel, hint: string): DebusineError {
  return new DebusineError('unsupported', `${channel} is not available in the browser: ${hint}`, {
    operation: channel,
  });
}

/**
 * What app.info tells the renderer about this host. The page answers some requests itself
 * in a browser (src/renderer/src/bridge/web-host-api.ts): downloads.save hands a link to
 * the browser's download there, and the page shows the notifications (PageNotifier).
 */
export function appCapabilities(host: HostCapabilities): AppCapabilities {
  const browser = host.transport === 'web';
  return {
    saveDownload: browser ? 'browser' : 'dialog',
    dropFolders: browser ? 'page' : 'main',
    completionCommand: host.chooseProgram ? 'dialog' : 'file',
    notifications: browser ? 'browser' : 'desktop',
  };
}
