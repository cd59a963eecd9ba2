import { useMutation } from '@tanstack/react-query';
import type { StagedFile } from '@shared/contract';
import { useBridge } from '@renderer/bridge';
import { useUploadDrafts } from '@renderer/state/upload-drafts';

/**
 * Turns dropped or picked files into drafts: main stages them (the renderer only ever gets
 * ids) and detects the kind of local artifact they make, checking every file-set rule.
 */
export function usePrepare() {
  const bridge = useBridge();
  const addStaged = useUploadDrafts((s) => s.addStaged);
  return useMutation({
    mutationFn: async (input: { files: File[] } | { staged: StagedFile[] }) => {
      const staged =
        'staged' in input ? input.staged : await bridge.files.stageDropped(input.files);
      if (staged.length === 0) return null;
      const drafts = await bridge.localArtifacts.detect({ fileIds: staged.map((f) => f.id) });
      addStaged(staged, drafts);
      return drafts;
    },
  });
}
