/**
 * Uploads: the jobs main runs (app data: they outlive a server switch and a restart), the
 * kinds of local artifact it knows, and preparing, changing and starting drafts.
 */
import type { QueryClient } from '@tanstack/react-query';
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
  /**
   * The drafts this page made, as main holds them: they survive visiting another area, and
   * main lets them go with the page.
   */
  drafts: defineQuery([APP, 'localArtifacts', 'drafts'], (bridge) => bridge.localArtifacts.list(), {
    staleTime: Infinity,
  }),
};

/**
 * The cached drafts, changed by `change`. None cached yet (the Upload screen was not
 * shown): they are read from main when wanted, which cancels a read on its way that may
 * have been answered before this change.
 */
function writeDrafts(
  queryClient: QueryClient,
  change: (drafts: LocalArtifactDraft[]) => LocalArtifactDraft[],
): void {
  const drafts = queryClient.getQueryData<LocalArtifactDraft[]>(uploadQueries.drafts.key);
  if (drafts === undefined) {
    void queryClient.invalidateQueries({ queryKey: uploadQueries.drafts.key });
    return;
  }
  queryClient.setQueryData(uploadQueries.drafts.key, change(drafts));
}

function withoutDraft(queryClient: QueryClient, draftId: string): void {
  writeDrafts(queryClient, (drafts) => drafts.filter((d) => d.draftId !== draftId));
}

/** The job list with `job` in it: updated in place, or new on top. */
export function mergeJob(jobs: UploadJob[] | undefined, job: UploadJob): UploadJob[] {
  const list = jobs ?? [];
  return list.some((j) => j.jobId === job.jobId)
    ? list.map((j) => (j.jobId === job.jobId ? { ...j, ...job } : j))
    : [job, ...list];
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
    ): Promise<LocalArtifactDraft[] | null> => {
      const staged =
        'staged' in input ? input.staged : await bridge.files.stageDropped(input.files);
      if (staged.length === 0) return null;
      return bridge.localArtifacts.detect({ fileIds: staged.map((f) => f.id) });
    },
    writes: (queryClient, _scope, drafts) => {
      if (drafts) writeDrafts(queryClient, (list) => [...list, ...drafts]);
    },
  }),
  updateDraft: defineMutation({
    fn: (bridge, args: RequestArgs<'localArtifacts.update'>) => bridge.localArtifacts.update(args),
    writes: (queryClient, _scope, draft) => {
      writeDrafts(queryClient, (list) =>
        list.map((d) => (d.draftId === draft.draftId ? draft : d)),
      );
    },
  }),
  /** Main releases the staged files no other draft of this page is made of. */
  discardDraft: defineMutation({
    fn: (bridge, draftId: string) => bridge.localArtifacts.discard({ draftId }),
    writes: (queryClient, _scope, _result, draftId) => {
      withoutDraft(queryClient, draftId);
    },
  }),
  /** The upload takes the draft: it is no longer this page's to change. */
  start: defineMutation({
    fn: (bridge, args: RequestArgs<'uploads.start'>) => bridge.uploads.start(args),
    writes: (queryClient, _scope, job: UploadJob, args) => {
      withoutDraft(queryClient, args.draftId);
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
