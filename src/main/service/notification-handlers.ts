/**
 * The notification requests: what notifies (the bridge may change it), the recent
 * notifications, and the program run on completion, which the bridge can read but never
 * name. Where the host has a file dialog (Electron), main shows it and stores the program
 * chosen there; elsewhere (the web host) the user edits the command file by hand.
 */
import type { ServiceHandlers } from '../bridge/dispatch';
import type { NotificationSettings, RequestChannel } from '../../shared/contract';
import { DebusineError } from '../../shared/errors';
import type { WatchService } from './watching';

type Handlers = Pick<
  ServiceHandlers,
  | 'notifications.getSettings'
  | 'notifications.setSettings'
  | 'notifications.chooseCommand'
  | 'notifications.removeCommand'
  | 'notifications.recent'
  | 'notifications.activate'
>;

/** Shows the host's own open dialog for a program; its path, or null when cancelled. */
export type ChooseProgram = () => Promise<string | null>;

/**
 * Runs what the click of a notification the page showed does (PageNotifier.activate);
 * false when it is no longer kept.
 */
export type ActivateNotification = (key: string) => boolean;

export function notificationHandlers(
  watch: WatchService,
  chooseProgram: ChooseProgram | undefined,
  activate?: ActivateNotification,
): Handlers {
  const settings = async (): Promise<NotificationSettings> => {
    const { hook, problem } = await watch.commands.read();
    return {
      ...watch.settings.get(),
      commandHook: hook,
      commandFile: watch.commands.path,
      commandProblem: problem,
    };
  };
  const dialog = (channel: RequestChannel): ChooseProgram => {
    if (chooseProgram) return chooseProgram;
    throw new DebusineError(
      'unsupported',
      `${channel} is not available in the browser: the program to run on completion is read from ${watch.commands.path}; edit that file`,
      { operation: channel, file: watch.commands.path },
    );
  };
  return {
    'notifications.getSettings': () => settings(),
    'notifications.setSettings': async (changes) => {
      await watch.updatePreferences(changes);
      return settings();
    },
    'notifications.chooseCommand': async () => {
      const program = await dialog('notifications.chooseCommand')();
      if (program !== null) await watch.commands.choose(program);
      return settings();
    },
    'notifications.removeCommand': async () => {
      dialog('notifications.removeCommand');
      await watch.commands.remove();
      return settings();
    },
    'notifications.recent': () => Promise.resolve(watch.recentNotifications()),
    'notifications.activate': ({ key }) => {
      const refusal = activation(activate, key);
      return refusal ? Promise.reject(refusal) : Promise.resolve(undefined);
    },
  };
}

/** Runs the click of the page's notification `key`; why it could not, or null once done. */
function activation(activate: ActivateNotification | undefined, key: string): DebusineError | null {
  if (!activate) {
    return new DebusineError(
      'unsupported',
      'notifications.activate answers notifications the page shows; this host shows its own',
      { operation: 'notifications.activate' },
    );
  }
  if (activate(key)) return null;
  return new DebusineError(
    'not-found',
    'That notification is too old to open: find it under Work requests › Notifications.',
    { key },
  );
}
