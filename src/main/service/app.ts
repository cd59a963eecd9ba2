/**
 * The app's own entries: what it is and runs on, opening an address in the system browser,
 * and opening a pasted address in the app on the server it names (as a deep link).
 */
import type { ServiceHandlers } from '../bridge/dispatch';
import { APP_NAME, APP_VERSION } from '../version';
import { readDeepLink } from './deep-links';
import { appCapabilities, notOnThisHost, type HostCapabilities } from './host';
import type { Navigation } from './navigation';

type Handlers = Pick<ServiceHandlers, 'app.info' | 'app.openExternal' | 'links.open'>;

export function appHandlers(host: HostCapabilities, navigation: Navigation): Handlers {
  return {
    'app.info': () =>
      Promise.resolve({
        name: APP_NAME,
        version: APP_VERSION,
        platform: host.platform,
        capabilities: appCapabilities(host),
      }),
    'app.openExternal': async ({ url }) => {
      if (!host.openExternal) throw notOnThisHost('app.openExternal', 'open the link yourself');
      await host.openExternal(url);
      return undefined;
    },
    'links.open': async ({ text }) => {
      // A pasted address is told in the page it was pasted in, not in a dialog.
      const reading = readDeepLink(text);
      return reading.ok ? navigation.go(reading.destination) : { refused: reading.reason };
    },
  };
}
