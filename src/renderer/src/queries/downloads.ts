/**
 * Downloads: saving artifacts (downloads.save) and stopping one (downloads.cancel), and the
 * jobs main runs for them, by job id. Jobs are app data that is never fetched (main keeps
 * no list of them): a save writes the jobs it started, and main's download.progress and
 * download.finished (events.ts) write each change after that.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { DownloadJob, RequestArgs } from '@shared/contract';
import { APP, defineMutation, defineQuery } from './define';
import { useAppQuery } from './hooks';

export type DownloadJobs = Readonly<Record<string, DownloadJob>>;

const NONE: DownloadJobs = {};

export const downloadQueries = {
  jobs: defineQuery<DownloadJobs>(
    [APP, 'downloads', 'jobs'],
    // Read again (everything made stale), it is what the cache holds: nothing else knows.
    (_bridge, { client, queryKey }) =>
      Promise.resolve(client.getQueryData<DownloadJobs>(queryKey) ?? NONE),
    { staleTime: Infinity, initialData: NONE },
  ),
};

/**
 * Writes a job as main reports it. `ifUnknown`: only when nothing was written of it yet, for
 * the state a save answered, which may arrive after main's first events about the job.
 */
export function putDownloadJob(
  queryClient: QueryClient,
  job: DownloadJob,
  options: { ifUnknown?: boolean } = {},
): void {
  queryClient.setQueryData<DownloadJobs>(downloadQueries.jobs.key, (jobs = NONE) =>
    options.ifUnknown && job.jobId in jobs ? jobs : { ...jobs, [job.jobId]: job },
  );
}

/** The jobs main runs or ran for this page's saves, by id. */
export function useDownloadJobs(): DownloadJobs {
  return useAppQuery(downloadQueries.jobs).data ?? NONE;
}

export const downloadMutations = {
  save: defineMutation({
    fn: (bridge, args: RequestArgs<'downloads.save'>) => bridge.downloads.save(args),
    writes: (queryClient, _scope, saved) => {
      if (saved?.savedBy !== 'app') return;
      for (const job of saved.jobs) putDownloadJob(queryClient, job, { ifUnknown: true });
    },
  }),
  cancel: defineMutation({
    fn: (bridge, jobId: string) => bridge.downloads.cancel({ jobId }),
    writes: (queryClient, _scope, job) => {
      putDownloadJob(queryClient, job);
    },
  }),
};
