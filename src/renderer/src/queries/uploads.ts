/**
 * Uploads: the jobs main runs (app data: they outlive a server switch and a restart), the
 * kinds of local artifact it knows, and preparing, changing and starting drafts.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type {
  LocalArtifactDraft,
  RequestArgs,
  StagedFile,
  UploadJob,
  UploadSettings,
} from '@shared/contract';
import { APP, defineMutation, defineQuery } from './define';

export const uploadQueries = {
  jobs: defineQuery([APP, 'uploads'], (bridge) => bridge.uploads.list()),
  kinds: defineQuery([APP, 'localArtifacts', 'kinds'], (bridge) => bridge.localArtifacts.kinds(), {
    staleTime: Infinity,
  }),
  settings: defineQuery([APP, 'uploads', 'settings'], (bridge) => bridge.uploads.getSettings()),
};

/** The job list with `job` in it: updated in place, or new on top. */
export function mergeJob(jobs: UploadJob[] | undefined, job: UploadJob): UploadJob[] {
  const list = jobs ?? [];
  return list.some((j) => j.jobId === job.jobId)
    ? list.map((j) => (j.jobId === job.jobId ? { ...j, ...job } : j))
    : [job, ...list];
}

/** The job list as cached now (for an event handler, which runs outside rendering). */
export function useCachedJobs(): () => UploadJob[] {
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.getQueryData<UploadJob[]>(uploadQueries.jobs.key) ?? [],
    [queryClient],
  );
}

/** Puts a job's new state into the cached list, if one is cached (events.ts). */
export function updateJob(queryClient: QueryClient, job: UploadJob): void {
  queryClient.setQueryData<UploadJob[]>(uploadQueries.jobs.key, (list) =>
    list === undefined ? undefined : mergeJob(list, job),
  );
}

export const uploadMutations = {
  /** Whether a .changes' dput workflow is offered or always started. */
  saveSettings: defineMutation({
    fn: (bridge, settings: UploadSettings) => bridge.uploads.setSettings(settings),
    writes: (queryClient, _scope, saved: UploadSettings) => {
      queryClient.setQueryData(uploadQueries.settings.key, saved);
    },
  }),
  /**
   * Turns dropped or picked files into drafts: main stages them (the renderer only ever
   * gets ids) and detects the kind of local artifact they make, checking every file-set
   * rule. Null when there was nothing to stage.
   */
  prepare: defineMutation({
    fn: async (
      bridge,
      input: { files: File[] } | { staged: StagedFile[] },
    ): Promise<{ staged: StagedFile[]; drafts: LocalArtifactDraft[] } | null> => {
      const staged =
        'staged' in input ? input.staged : await bridge.files.stageDropped(input.files);
      if (staged.length === 0) return null;
      const drafts = await bridge.localArtifacts.detect({ fileIds: staged.map((f) => f.id) });
      return { staged, drafts };
    },
  }),
  updateDraft: defineMutation({
    fn: (bridge, args: RequestArgs<'localArtifacts.update'>) => bridge.localArtifacts.update(args),
  }),
  discardDraft: defineMutation({
    fn: (bridge, draftId: string) => bridge.localArtifacts.discard({ draftId }),
  }),
  start: defineMutation({
    fn: (bridge, args: RequestArgs<'uploads.start'>) => bridge.uploads.start(args),
    writes: (queryClient, _scope, job: UploadJob) => {
      queryClient.setQueryData<UploadJob[]>(uploadQueries.jobs.key, (jobs) => [
        job,
        ...(jobs ?? []).filter((j) => j.jobId !== job.jobId),
      ]);
    },
  }),
  /** Pause, resume, cancel or retry a job: the answer is the job as it is now. */
  act: defineMutation({
    fn: (bridge, args: { action: 'pause' | 'resume' | 'cancel' | 'retry'; jobId: string }) =>
      bridge.uploads[args.action]({ jobId: args.jobId }),
    writes: (queryClient, _scope, job: UploadJob) => {
      queryClient.setQueryData<UploadJob[]>(uploadQueries.jobs.key, (list) => mergeJob(list, job));
    },
  }),
};
