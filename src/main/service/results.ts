/**
 * What the app reads out of a work request's results on the active server: why it failed
 * (its log's error line, the failed tests), and lintian's tags.
 */
import type { ServiceHandlers } from '../bridge/dispatch';
import type { LogStore } from '../logs/log-store';
import { explainWorkRequest, failureExplainer } from '../results/explainer';
import { lintianTags } from '../results/lintian-tags';
import { DebusineError } from '../../shared/errors';
import type { SessionProvider } from './session';

type Handlers = Pick<ServiceHandlers, 'workRequests.explainFailure' | 'results.lintianTags'>;

function noServer(): DebusineError {
  return new DebusineError('auth', 'No Debusine server is configured yet.');
}

export function resultHandlers(session: SessionProvider, logs: LogStore): Handlers {
  return {
    'workRequests.explainFailure': async ({ id }) => {
      const server = session.active();
      if (!server) throw noServer();
      const client = session.client();
      return explainWorkRequest(client, failureExplainer(logs, server.apiUrl, client), id);
    },
    'results.lintianTags': async ({ artifactId }) => {
      if (!session.active()) throw noServer();
      return lintianTags(session.client(), artifactId);
    },
  };
}
