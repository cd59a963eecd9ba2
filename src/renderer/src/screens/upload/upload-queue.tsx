import { Inbox } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { UploadJob } from '@shared/contract';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import { useAppQuery, useMutationOf } from '@renderer/queries/hooks';
import { uploadMutations, uploadQueries } from '@renderer/queries/uploads';
import { serverQueries } from '@renderer/queries/servers';
import { useUiStore } from '@renderer/state/ui-store';
import { UploadRow } from './upload-row';
import { useStartedUploads } from '@renderer/state/started-uploads';
import { useOpen } from '@renderer/kit/navigation';

/**
 * The upload queue: every job main knows, including those resumed after a restart, with
 * live progress from main's upload.progress events.
 */
export function UploadQueue(): React.JSX.Element {
  const startedJobs = useStartedUploads((s) => s.jobIds);
  const { openArtifact, openWorkRequest } = useOpen();
  const active = useAppQuery(serverQueries.active);
  const activeApi = active.data?.apiUrl ?? null;
  // Progress and ends come into the cached list through queries/events.ts.
  const jobs = useAppQuery(uploadQueries.jobs);
  // The states of the jobs as last seen: an end is a job going from another state to
  // `completed` between two lists.
  const seen = useRef<Map<string, UploadJob['state']> | null>(null);

  // When an upload started here finishes, its artifact page opens (if nothing else of
  // ours is still going, so that the queue is not yanked away mid-batch).
  useEffect(() => {
    const list = jobs.data;
    if (list === undefined) return;
    const before = seen.current;
    seen.current = new Map(list.map((j) => [j.jobId, j.state]));
    const mine = list.filter((j) => startedJobs.includes(j.jobId));
    const job = mine
      .filter(
        (j) =>
          j.state === 'completed' && before?.has(j.jobId) && before.get(j.jobId) !== 'completed',
      )
      .at(-1);
    if (job?.artifactId == null) return;
    const othersRunning = mine.some((j) => ['queued', 'running'].includes(j.state));
    if (othersRunning || useUiStore.getState().area !== 'upload') return;
    // A workflow the upload started is where the user goes next, as after `dput`: its
    // tree, live; else the artifact's page. Only on the server it was made on.
    if (job.apiUrl !== activeApi) return;
    const workflowId = job.workflow?.workRequestId ?? null;
    if (workflowId !== null) openWorkRequest(workflowId);
    else openArtifact(job.artifactId);
  }, [jobs.data, startedJobs, activeApi, openArtifact, openWorkRequest]);

  const act = useMutationOf(uploadMutations.act);

  const list = jobs.data ?? [];
  const running = list.filter((j) => j.state === 'running' || j.state === 'queued');
  return (
    <section className="queue" aria-labelledby="queue-title">
      <div className="queue-head">
        <h2 id="queue-title">Upload queue</h2>
        <span className="muted" role="status">
          {running.length > 0
            ? `${String(running.length)} uploading`
            : list.length > 0
              ? 'Nothing uploading'
              : ''}
        </span>
      </div>
      {jobs.isPending ? <LoadingState label="Loading the upload queue…" /> : null}
      {jobs.isError ? <ErrorState error={jobs.error} onRetry={() => void jobs.refetch()} /> : null}
      {act.isError ? <ErrorState error={act.error} /> : null}
      {jobs.isSuccess && list.length === 0 ? (
        <div className="queue-empty muted">
          <Inbox size={16} aria-hidden="true" />
          No uploads yet. Uploads you start appear here, and stay across restarts until they finish.
        </div>
      ) : null}
      {list.length > 0 ? (
        <ul className="row-list queue-list" aria-label="Uploads">
          {list.map((job) => (
            <UploadRow
              key={job.jobId}
              job={job}
              busy={act.isPending && act.variables.jobId === job.jobId}
              startedHere={startedJobs.includes(job.jobId)}
              onAction={(action) => {
                act.mutate({ action, jobId: job.jobId });
              }}
              // Its ids are its server's: opened only while that server is the active one.
              onOpen={job.apiUrl === activeApi ? openArtifact : undefined}
              onOpenWorkflow={job.apiUrl === activeApi ? openWorkRequest : undefined}
            />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
