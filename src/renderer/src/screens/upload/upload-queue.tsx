import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Inbox } from 'lucide-react';
import { useEffect } from 'react';
import type { UploadJob } from '@shared/contract';
import { useBridge } from '@renderer/bridge';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import { keys } from '@renderer/queries/keys';
import { useUiStore } from '@renderer/state/ui-store';
import { UploadRow } from './upload-row';
import { useUploadDrafts } from '@renderer/state/upload-drafts';

function mergeJob(jobs: UploadJob[] | undefined, job: UploadJob): UploadJob[] {
  const list = jobs ?? [];
  return list.some((j) => j.jobId === job.jobId)
    ? list.map((j) => (j.jobId === job.jobId ? { ...j, ...job } : j))
    : [job, ...list];
}

/**
 * The upload queue: every job main knows, including those resumed after a restart, with
 * live progress from main's upload.progress events.
 */
export function UploadQueue(): React.JSX.Element {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const startedJobs = useUploadDrafts((s) => s.startedJobs);
  const uploaded = useUploadDrafts((s) => s.uploaded);
  const openArtifact = useUiStore((s) => s.openArtifact);
  const jobs = useQuery({
    queryKey: keys.uploads.list(),
    queryFn: () => bridge.uploads.list(),
  });

  // Progress arrives many times a second: it updates the cached list in place rather than
  // refetching it (upload.finished still invalidates it, in queries/invalidation.ts).
  useEffect(() => {
    const off = bridge.on('upload.progress', (event) => {
      const job: UploadJob = { ...event };
      delete (job as Partial<typeof event>).file;
      queryClient.setQueryData<UploadJob[]>(keys.uploads.list(), (list) => mergeJob(list, job));
    });
    return off;
  }, [bridge, queryClient]);

  // When an upload started here finishes, its artifact page opens (if nothing else of
  // ours is still going, so that the queue is not yanked away mid-batch).
  useEffect(() => {
    return bridge.on('upload.finished', (job) => {
      queryClient.setQueryData<UploadJob[]>(keys.uploads.list(), (list) => mergeJob(list, job));
      const mine = useUploadDrafts.getState().startedJobs;
      if (job.state !== 'completed' || job.artifactId === null || !mine.includes(job.jobId)) {
        return;
      }
      uploaded({ artifactId: job.artifactId, workspace: job.workspace, category: job.category });
      const list = queryClient.getQueryData<UploadJob[]>(keys.uploads.list()) ?? [];
      const othersRunning = list.some(
        (j) =>
          j.jobId !== job.jobId &&
          mine.includes(j.jobId) &&
          ['queued', 'running'].includes(j.state),
      );
      if (!othersRunning && useUiStore.getState().area === 'upload') openArtifact(job.artifactId);
    });
  }, [bridge, queryClient, uploaded, openArtifact]);

  const act = useMutation({
    mutationFn: ({
      action,
      jobId,
    }: {
      action: 'pause' | 'resume' | 'cancel' | 'retry';
      jobId: string;
    }) => bridge.uploads[action]({ jobId }),
    onSuccess: (job) => {
      queryClient.setQueryData<UploadJob[]>(keys.uploads.list(), (list) => mergeJob(list, job));
    },
  });

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
        <ul className="queue-list" aria-label="Uploads">
          {list.map((job) => (
            <UploadRow
              key={job.jobId}
              job={job}
              busy={act.isPending && act.variables.jobId === job.jobId}
              startedHere={startedJobs.includes(job.jobId)}
              onAction={(action) => {
                act.mutate({ action, jobId: job.jobId });
              }}
              onOpen={openArtifact}
            />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
