import { CircleAlert, CircleCheck, Trash2, Upload } from 'lucide-react';
import { useId, useState } from 'react';
import type { LocalArtifactDraft, PublishTarget } from '@shared/contract';
import { visibleText } from '@shared/visible-text';
import { ErrorState } from '@renderer/kit/errors/error-state';
import { JsonView } from '@renderer/components/json-view';
import { formatBytes } from '@renderer/components/format';
import { useAppQuery, useMutationOf } from '@renderer/queries/hooks';
import { serverQueries } from '@renderer/queries/servers';
import { uploadMutations, uploadQueries } from '@renderer/queries/uploads';
import { DraftFiles, rowsOf } from './draft-files';
import { DputPlan } from './dput-plan';
import { UploadOptions, expiryToIso, type Expiry } from './upload-options';
import { useStartedUploads } from '@renderer/state/started-uploads';

/** A publish target's option value: a workspace and a suite, neither of which holds NUL. */
function keyOf(target: PublishTarget): string {
  return `${target.workspace}\u0000${target.suite}`;
}

/** One local artifact about to be uploaded: its kind, files, data, checks and options. */
export function DraftCard(props: { draft: LocalArtifactDraft }): React.JSX.Element {
  const { draft } = props;
  const id = useId();
  const jobStarted = useStartedUploads((s) => s.started);
  const active = useAppQuery(serverQueries.active);
  const kinds = useAppQuery(uploadQueries.kinds);
  const [workspace, setWorkspace] = useState<string | null>(null);
  const [expiry, setExpiry] = useState<Expiry>({ preset: 'never', custom: '' });

  // Main keeps the draft; its answers replace it in uploads.drafts (queries/uploads.ts).
  const update = useMutationOf(uploadMutations.updateDraft);
  const discard = useMutationOf(uploadMutations.discardDraft);
  const proposal = draft.workflow;
  const [targetKey, setTargetKey] = useState('');
  const targets = proposal?.targets ?? [];
  const target = targets.find((t) => keyOf(t) === targetKey) ?? null;
  // The workflow dput would start: only when the profile names one the server has.
  const dputWorkflow =
    proposal?.template && proposal.workspace !== null && proposal.problem === null
      ? { template: proposal.template, workspace: proposal.workspace, always: proposal.always }
      : null;
  // dput uploads to its profile's workspace; so does the app, unless told otherwise. A
  // publication goes to its repository.
  const effectiveWorkspace =
    target?.workspace ?? workspace ?? proposal?.workspace ?? active.data?.defaultWorkspace ?? '';
  // The workflow takes the upload from its own workspace: elsewhere, it is not started.
  const startsWorkflow = target
    ? { template: target.template, workspace: target.workspace, always: false }
    : dputWorkflow !== null && effectiveWorkspace.trim() === dputWorkflow.workspace
      ? dputWorkflow
      : null;
  const start = useMutationOf(uploadMutations.start, {
    onSuccess: (job) => {
      jobStarted(job.jobId);
    },
  });

  const total = draft.files.reduce((sum, f) => sum + f.size, 0);
  const { general } = rowsOf(draft);
  const busy = update.isPending || start.isPending || discard.isPending;
  const expiryInvalid = expiry.preset === 'custom' && expiryToIso(expiry) === null;
  const problemCount = draft.problems.length;

  return (
    <section className="draft" aria-labelledby={`${id}-title`} data-testid="draft">
      <header className="draft-head">
        <div className="draft-title">
          <h2 id={`${id}-title`}>
            {draft.category ? (
              <span className="mono">{draft.category}</span>
            ) : (
              <span>No kind fits these files</span>
            )}
          </h2>
          <p className="muted draft-reason">{draft.reason}</p>
        </div>
        <div className="draft-verdict">
          {draft.ready ? (
            <span className="status-badge tone-success" data-testid="draft-ready">
              <CircleCheck size={15} aria-hidden="true" /> Ready to upload
            </span>
          ) : (
            <span className="status-badge tone-danger" data-testid="draft-blocked">
              <CircleAlert size={15} aria-hidden="true" />
              {problemCount === 1 ? '1 problem' : `${String(problemCount)} problems`}
            </span>
          )}
          <span className="muted">
            {draft.files.length > 0
              ? `${String(draft.files.length)} ${draft.files.length === 1 ? 'file' : 'files'} · ${formatBytes(total)}`
              : 'Nothing to upload yet'}
          </span>
        </div>
      </header>

      <div className="draft-body">
        <div className="draft-main">
          <div className="field field-inline">
            <label htmlFor={`${id}-kind`}>Kind</label>
            <select
              id={`${id}-kind`}
              className="select mono"
              value={draft.kind ?? ''}
              disabled={busy || !kinds.data}
              onChange={(event) => {
                update.mutate({ draftId: draft.draftId, kind: event.target.value });
              }}
            >
              {draft.kind === null ? <option value="">Choose a kind…</option> : null}
              {(
                kinds.data ??
                (draft.kind ? [{ kind: draft.kind, category: draft.category ?? '' }] : [])
              ).map((k) => (
                <option key={k.kind} value={k.kind}>
                  {k.category}
                </option>
              ))}
            </select>
          </div>
          <DputPlan draft={draft} />
          {targets.length > 0 ? (
            <div className="field field-inline publish-to">
              <label htmlFor={`${id}-publish`}>Publish to</label>
              <select
                id={`${id}-publish`}
                className="select"
                value={targetKey}
                disabled={busy}
                aria-describedby={`${id}-publish-hint`}
                onChange={(event) => {
                  setTargetKey(event.target.value);
                }}
              >
                <option value="">
                  {dputWorkflow
                    ? `Nowhere: dput’s ${dputWorkflow.template}`
                    : 'Nowhere: upload only'}
                </option>
                {targets.map((t) => (
                  <option key={keyOf(t)} value={keyOf(t)}>
                    {`${t.suite} in ${t.workspace}`}
                  </option>
                ))}
              </select>
              <span id={`${id}-publish-hint`} className="field-hint">
                {target ? (
                  <>
                    Uploads to <span className="mono">{visibleText(target.workspace)}</span> and
                    starts <span className="mono">{visibleText(target.template)}</span> there:
                    built, checked and published, with a notification once apt can install it.
                  </>
                ) : (
                  'A suite of one of your repositories, instead of the workflow above.'
                )}
              </span>
            </div>
          ) : null}
          {general.length > 0 ? (
            <ul className="problems general" aria-label="Problems with this artifact">
              {general.map((p) => (
                <li key={`${p.rule}:${p.message}`} className="problem">
                  <CircleAlert size={14} aria-hidden="true" className="tone-danger" />
                  <span>
                    {p.message} <span className="mono muted rule">{p.rule}</span>
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
          <DraftFiles
            draft={draft}
            busy={busy}
            onToggle={(fileId, include) => {
              const excluded = new Set(draft.userExcludedFileIds);
              if (include) excluded.delete(fileId);
              else excluded.add(fileId);
              update.mutate({ draftId: draft.draftId, excludeFiles: [...excluded] });
            }}
          />
          {Object.keys(draft.data).length > 0 ? (
            <details className="draft-data" open>
              <summary>Data ({Object.keys(draft.data).length} fields)</summary>
              <JsonView value={draft.data} label="Artifact data" />
            </details>
          ) : (
            <p className="muted draft-data">No data until the files make a valid artifact.</p>
          )}
        </div>
        <UploadOptions
          idPrefix={id}
          workspace={effectiveWorkspace}
          onWorkspace={(value) => {
            // A workspace typed here is not the publication's: it uploads there instead.
            setTargetKey('');
            setWorkspace(value);
          }}
          expiry={expiry}
          onExpiry={setExpiry}
          allowRemote={draft.allowRemote}
          onAllowRemote={(allowRemote) => {
            update.mutate({ draftId: draft.draftId, allowRemote });
          }}
          busy={busy}
        />
      </div>
      {update.isError ? <ErrorState error={update.error} /> : null}
      {discard.isError ? <ErrorState error={discard.error} /> : null}
      {start.isError ? <ErrorState error={start.error} /> : null}
      <footer className="draft-actions">
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => {
            discard.mutate(draft.draftId);
          }}
        >
          <Trash2 size={14} aria-hidden="true" />
          Discard
        </button>
        {startsWorkflow && !startsWorkflow.always ? (
          <button
            type="button"
            className="button"
            disabled={!draft.ready || busy || expiryInvalid}
            onClick={() => {
              start.mutate({
                draftId: draft.draftId,
                workspace: effectiveWorkspace.trim() || null,
                expireAt: expiryToIso(expiry),
              });
            }}
          >
            <Upload size={14} aria-hidden="true" />
            Upload only
          </button>
        ) : null}
        <button
          type="button"
          className="button primary"
          disabled={!draft.ready || busy || expiryInvalid}
          aria-describedby={draft.ready ? undefined : `${id}-why`}
          data-testid="upload-start"
          onClick={() => {
            start.mutate({
              draftId: draft.draftId,
              workspace: effectiveWorkspace.trim() || null,
              expireAt: expiryToIso(expiry),
              startWorkflow: startsWorkflow !== null && target === null,
              publishTo: target ? { workspace: target.workspace, suite: target.suite } : null,
            });
          }}
        >
          <Upload size={14} aria-hidden="true" />
          {start.isPending
            ? 'Starting…'
            : target
              ? `Upload and publish to ${visibleText(target.suite)}`
              : startsWorkflow
                ? `Upload and start ${visibleText(startsWorkflow.template)}`
                : 'Upload'}
        </button>
        {dputWorkflow && !startsWorkflow ? (
          <span className="field-hint" data-testid="dput-workspace-hint">
            {visibleText(dputWorkflow.template)} starts in{' '}
            <span className="mono">{visibleText(dputWorkflow.workspace)}</span>: upload there to
            start it.
          </span>
        ) : null}
        {draft.ready ? null : (
          <span id={`${id}-why`} className="field-hint">
            Fix the problems above, change the kind, or leave files out, then upload.
          </span>
        )}
      </footer>
    </section>
  );
}
