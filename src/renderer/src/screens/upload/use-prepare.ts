import { useMutationOf } from '@renderer/queries/hooks';
import { uploadMutations } from '@renderer/queries/uploads';
import { useUploadDrafts } from '@renderer/state/upload-drafts';

/**
 * Turns dropped or picked files into drafts (see uploadMutations.prepare), kept with the
 * upload being prepared.
 */
export function usePrepare() {
  const addStaged = useUploadDrafts((s) => s.addStaged);
  return useMutationOf(uploadMutations.prepare, {
    onSuccess: (prepared) => {
      if (prepared) addStaged(prepared.staged, prepared.drafts);
    },
  });
}
