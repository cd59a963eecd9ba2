import { useAppQuery } from '@renderer/queries/hooks';
import { serverQueries } from '@renderer/queries/servers';
import { uploadQueries } from '@renderer/queries/uploads';
import { useStartedUploads } from '@renderer/state/started-uploads';

/**
 * Whether this window uploaded the artifact of this number, on the active server: an
 * upload started here that made it has completed. Artifact numbers are a server's own, so
 * an upload to another server with the same number does not count.
 */
export function useUploadedHere(artifactId: number): boolean {
  const started = useStartedUploads((s) => s.jobIds);
  const jobs = useAppQuery(uploadQueries.jobs);
  const active = useAppQuery(serverQueries.active);
  const apiUrl = active.data?.apiUrl ?? null;
  return (jobs.data ?? []).some(
    (job) =>
      job.state === 'completed' &&
      job.artifactId === artifactId &&
      job.apiUrl === apiUrl &&
      started.includes(job.jobId),
  );
}
