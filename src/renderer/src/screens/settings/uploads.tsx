import { GitBranch, MousePointerClick } from 'lucide-react';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { LoadingState } from '@renderer/components/loading-state';
import { useAppQuery, useMutationOf } from '@renderer/queries/hooks';
import { uploadMutations, uploadQueries } from '@renderer/queries/uploads';
import { SegmentedOptions } from './segmented-options';

const CHOICES = [
  { id: 'offer', label: 'Offer it (a button)', icon: MousePointerClick },
  { id: 'always', label: 'Always start it, as dput does', icon: GitBranch },
] as const;

/** What happens after a .changes is uploaded: the workflow its dput-ng profile names. */
export function UploadSettingsSection(): React.JSX.Element {
  const query = useAppQuery(uploadQueries.settings);
  const save = useMutationOf(uploadMutations.saveSettings);
  return (
    <section className="settings-section" aria-labelledby="settings-uploads">
      <h2 id="settings-uploads">Uploads</h2>
      {query.isPending ? <LoadingState label="Loading upload settings…" /> : null}
      {query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : null}
      {query.isSuccess ? (
        <div
          role="radiogroup"
          aria-labelledby="settings-dput-label"
          className="segmented"
          data-testid="dput-workflow-setting"
        >
          <span id="settings-dput-label" className="segmented-label">
            dput&apos;s workflow
          </span>
          <SegmentedOptions
            name="dput-workflow"
            options={CHOICES}
            value={query.data.dputWorkflow}
            onChange={(dputWorkflow) => {
              save.mutate({ dputWorkflow });
            }}
          />
        </div>
      ) : null}
      <p className="field-hint">
        After a .changes is uploaded, dput starts the workflow its dput-ng profile names for the
        .changes&apos; Distribution (upload-to-unstable for unstable on debusine.debian.net).
      </p>
      {save.isError ? <ErrorState error={save.error} /> : null}
    </section>
  );
}
