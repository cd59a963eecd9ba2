import { FilePlus2, FolderPlus, UploadCloud } from 'lucide-react';
import { useState } from 'react';
import { useBridge } from '@renderer/bridge';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import { useIntent } from '@renderer/state/palette';
import { RequireServer } from '@renderer/kit/require-server';
import { useAppQuery, useMutationOf } from '@renderer/queries/hooks';
import { uploadMutations, uploadQueries } from '@renderer/queries/uploads';
import { DraftCard } from './draft-card';
import { UploadQueue } from './upload-queue';
import './upload.css';

/** Drop or pick packages, check them as local artifacts, upload them, watch the queue. */
export function UploadScreen(): React.JSX.Element {
  return (
    <RequireServer what="Uploading">
      <Uploader />
    </RequireServer>
  );
}

function Uploader(): React.JSX.Element {
  const bridge = useBridge();
  const drafts = useAppQuery(uploadQueries.drafts).data ?? [];
  // The drafts made go into uploads.drafts (queries/uploads.ts).
  const prepare = useMutationOf(uploadMutations.prepare);
  const [pickProblem, setPickProblem] = useState<unknown>(null);

  // Each host shows its own chooser: main's dialog, or the browser's.
  const pick = (folder: boolean): void => {
    setPickProblem(null);
    bridge.files
      .pick({
        multiple: true,
        folder,
        title: folder ? 'Choose a folder to upload' : 'Choose packages to upload',
      })
      .then(
        (staged) => {
          if (staged.length > 0) prepare.mutate({ staged });
        },
        (error: unknown) => {
          setPickProblem(error);
        },
      );
  };
  useIntent('upload.pick', () => {
    pick(false);
  });
  useIntent('upload.dropped', (intent) => {
    prepare.mutate({ files: intent.files });
  });

  const compact = drafts.length > 0;
  return (
    <div className="upload">
      <div
        className={compact ? 'drop-zone compact' : 'drop-zone'}
        data-testid="drop-zone"
        aria-describedby="drop-zone-text"
      >
        <UploadCloud size={compact ? 20 : 36} aria-hidden="true" className="drop-zone-icon" />
        <div className="drop-zone-text" id="drop-zone-text">
          <strong>Drop a .changes, .dsc, .deb or build log here</strong>
          <span className="muted">
            {compact
              ? 'Dropping more adds another artifact.'
              : 'Or a folder. The files become a local artifact of the kind they make; every rule is checked before anything is sent.'}
          </span>
        </div>
        <div className="drop-zone-actions">
          <button
            type="button"
            className="button primary"
            onClick={() => {
              pick(false);
            }}
          >
            <FilePlus2 size={14} aria-hidden="true" />
            Choose files…
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              pick(true);
            }}
          >
            <FolderPlus size={14} aria-hidden="true" />
            Choose folder…
          </button>
        </div>
      </div>
      {pickProblem !== null ? (
        <ErrorState error={pickProblem}>
          <p className="muted">Nothing was sent. Choose the files again once fixed.</p>
        </ErrorState>
      ) : null}
      {prepare.isPending ? <LoadingState label="Reading the files and checking them…" /> : null}
      {prepare.isError ? (
        <ErrorState error={prepare.error}>
          <p className="muted">Nothing was sent. Drop the files again once fixed.</p>
        </ErrorState>
      ) : null}
      {drafts.map((draft) => (
        <DraftCard key={draft.draftId} draft={draft} />
      ))}
      <UploadQueue />
    </div>
  );
}
