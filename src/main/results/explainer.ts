/**
 * Failure explanations on a server: the artifacts come from its API, and a build log is
 * read through the log store (downloaded once, verified, and cached, so that opening it in
 * the viewer afterwards downloads nothing).
 */
import type { DebusineClient } from '../api/client';
import type { LogSource } from '../logs/log-file';
import type { LogStore } from '../logs/log-store';
import type { WorkRequestResponse } from '../../shared/models';
import { explainFailure, type FailureReason } from './failure-reason';

export type Explain = (workRequest: WorkRequestResponse) => Promise<FailureReason | null>;

export function failureExplainer(logs: LogStore, apiUrl: string, client: DebusineClient): Explain {
  const source: LogSource = { apiUrl, client: () => client };
  return (workRequest) =>
    explainFailure(workRequest, {
      artifact: (id) => client.artifactGet(id),
      analyseLog: async (artifactId, path) => {
        const opened = await logs.open(source, artifactId, path);
        try {
          const state = await logs.settled(opened.handle);
          if (state.error) throw new Error(state.error.message);
          return state.analysis;
        } finally {
          await logs.close(opened.handle);
        }
      },
    });
}
