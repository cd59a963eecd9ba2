/**
 * Failure explanations on a server: the artifacts come from its API, and a build log is
 * read through the log store (downloaded once, verified, and cached, so that opening it in
 * the viewer afterwards downloads nothing).
 */
import type { DebusineClient } from '../api/client';
import type { LogSource } from '../logs/log-file';
import type { LogStore } from '../logs/log-store';
import type { WorkRequestResponse } from '../../shared/models';
import { endedUnsuccessfully, failedByItself } from '../../shared/results/end';
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

/** Worker tasks looked at, newest first, to find where a workflow failed. */
const SCAN_LIMIT = 2000;

/**
 * Why a work request failed: a task's own reason, or for a workflow that failed or was
 * aborted its first failed step's (the steps are found in the list of worker tasks, newest
 * first, down to the workflow's id: steps are always created after their workflow). A
 * workflow whose build step failed ends aborted, with no result: that step is its reason.
 * One aborted by hand has no failed step, and no reason.
 */
export async function explainWorkRequest(
  client: DebusineClient,
  explain: Explain,
  id: number,
): Promise<FailureReason | null> {
  const workRequest = await client.workRequestGet(id);
  if (workRequest.task_type === 'Worker') return explain(workRequest);
  if (!endedUnsuccessfully(workRequest)) return null;
  let first: WorkRequestResponse | undefined;
  let seen = 0;
  for await (const step of client.workRequestIter({ taskType: 'Worker' })) {
    if (step.id < id || ++seen > SCAN_LIMIT) break;
    // The list is asked for worker tasks; a sub-workflow that failed with its step says
    // nothing of its own, so one that comes through all the same is passed over.
    const broke = step.task_type === 'Worker' && failedByItself(step);
    if (broke && step.workflow_root === id && (!first || step.id < first.id)) first = step;
  }
  return first ? explain(first) : null;
}
