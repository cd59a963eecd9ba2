/**
 * The app itself: its name and version, and what the host it runs in can do (app.info).
 * It does not change while the page lives, so it is read once.
 */
import type { AppCapabilities } from '@shared/contract';
import { APP, defineQuery } from './define';
import { useAppQuery } from './hooks';

export const appQueries = {
  info: defineQuery([APP, 'app', 'info'], (bridge) => bridge.app.info(), {
    staleTime: Infinity,
  }),
};

/**
 * What the host does its own way (see AppCapabilities); undefined until main has said, so
 * that nothing is offered on a guess.
 */
export function useCapabilities(): AppCapabilities | undefined {
  return useAppQuery(appQueries.info).data?.capabilities;
}
