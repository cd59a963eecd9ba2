import { create } from 'zustand';
import type { LocalArtifactDraft, StagedFile } from '@shared/contract';

/**
 * The upload being prepared: the staged files (ids main handed out) and the drafts main
 * built from them. Kept here, not in a component, so that it survives visiting another
 * area. Jobs themselves are server-side state in react-query (uploads.list).
 */
interface UploadDrafts {
  staged: StagedFile[];
  drafts: LocalArtifactDraft[];
  /** Files the user left out, per draft (main's excludedFileIds also lists files a kind does not take). */
  excluded: Record<string, string[]>;
  setExcluded: (draftId: string, fileIds: string[]) => void;
  /** Jobs started from this window, to open their artifact when they finish. */
  startedJobs: string[];
  /** Artifacts uploaded from this window: their page offers to start a workflow. */
  uploadedArtifacts: { artifactId: number; workspace: string; category: string }[];
  addStaged: (files: StagedFile[], drafts: LocalArtifactDraft[]) => void;
  replaceDraft: (draft: LocalArtifactDraft) => void;
  /**
   * Forgets a draft, and the staged files no other draft takes: their ids are returned,
   * for main to release.
   */
  removeDraft: (draftId: string) => string[];
  clear: () => void;
  jobStarted: (jobId: string) => void;
  uploaded: (entry: { artifactId: number; workspace: string; category: string }) => void;
}

function fileIdsOf(draft: LocalArtifactDraft): string[] {
  return [...draft.files.map((f) => f.fileId), ...draft.excludedFileIds];
}

export const useUploadDrafts = create<UploadDrafts>()((set, get) => ({
  staged: [],
  drafts: [],
  excluded: {},
  setExcluded: (draftId, fileIds) => {
    set((s) => ({ excluded: { ...s.excluded, [draftId]: fileIds } }));
  },
  startedJobs: [],
  uploadedArtifacts: [],
  addStaged: (files, drafts) => {
    set((s) => ({ staged: [...s.staged, ...files], drafts: [...s.drafts, ...drafts] }));
  },
  replaceDraft: (draft) => {
    set((s) => ({ drafts: s.drafts.map((d) => (d.draftId === draft.draftId ? draft : d)) }));
  },
  removeDraft: (draftId) => {
    const { drafts, staged } = get();
    const gone = drafts.find((d) => d.draftId === draftId);
    const rest = drafts.filter((d) => d.draftId !== draftId);
    const used = new Set(rest.flatMap(fileIdsOf));
    const unused = gone ? fileIdsOf(gone).filter((id) => !used.has(id)) : [];
    set({ drafts: rest, staged: staged.filter((f) => !unused.includes(f.id)) });
    return unused;
  },
  clear: () => {
    set({ staged: [], drafts: [] });
  },
  jobStarted: (jobId) => {
    set((s) => ({ startedJobs: [...s.startedJobs, jobId] }));
  },
  uploaded: (entry) => {
    set((s) => ({
      uploadedArtifacts: [
        entry,
        ...s.uploadedArtifacts.filter((u) => u.artifactId !== entry.artifactId),
      ].slice(0, 20),
    }));
  },
}));
