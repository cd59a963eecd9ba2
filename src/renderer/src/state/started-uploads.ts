import { create } from 'zustand';

/**
 * The uploads started from this window, by job id: when one finishes, its workflow or
 * artifact opens, and the artifact's page offers what comes next. The jobs themselves, and
 * the drafts they were started from, are main's (react-query: uploads.jobs, uploads.drafts).
 */
interface StartedUploads {
  jobIds: string[];
  started: (jobId: string) => void;
}

export const useStartedUploads = create<StartedUploads>()((set) => ({
  jobIds: [],
  started: (jobId) => {
    set((s) => ({ jobIds: [...s.jobIds, jobId] }));
  },
}));
