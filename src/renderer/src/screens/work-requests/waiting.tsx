import { CircleCheck, CircleX, Hand, PenLine } from 'lucide-react';
import { useId, useState } from 'react';
import type { WorkRequestResponse } from '@shared/contract';
import { OpenButton } from '@renderer/kit/open-button';
import { MutateButton } from '@renderer/components/mutate-button';
import { CopyButton } from '@renderer/components/copy-button';
import { useAppQuery, useMutationOf } from '@renderer/queries/hooks';
import { workRequestMutations, workRequestQueries } from '@renderer/queries/work-requests';
import { cliCommand, waitingKind } from './model';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What a waiting step asks of the user, and the means to answer it, on its page. */
export function WaitingStep(props: { wr: WorkRequestResponse }): React.JSX.Element | null {
  switch (waitingKind(props.wr)) {
    case 'sign':
      return <SignStep wr={props.wr} />;
    case 'confirm':
      return <DecideStep wr={props.wr} kind="confirm" />;
    case 'unblock':
      return <DecideStep wr={props.wr} kind="unblock" />;
    default:
      return null;
  }
}

/** Confirm steps take a comment; manually unblocked steps take notes; both accept or reject. */
function DecideStep(props: {
  wr: WorkRequestResponse;
  kind: 'confirm' | 'unblock';
}): React.JSX.Element {
  const { wr, kind } = props;
  const [notes, setNotes] = useState('');
  const notesId = useId();
  const decide = useMutationOf(workRequestMutations.decide);
  const decision = (accept: boolean) => ({ id: wr.id, kind, accept, notes: notes.trim() });
  return (
    <section className="wr-callout" aria-labelledby={`${notesId}-title`} data-testid="waiting-step">
      <Hand size={18} aria-hidden="true" className="tone-attention" />
      <div className="wr-callout-body">
        <h3 id={`${notesId}-title`}>
          {kind === 'confirm' ? 'This step waits for your confirmation' : 'This step is blocked'}
        </h3>
        <p className="muted">
          {kind === 'confirm'
            ? 'The workflow continues once someone confirms; rejecting it stops this branch.'
            : 'It waits for its dependencies, or for a manual decision. If it is held for review, accept it to let it run, or reject it (the server refuses when it only waits for dependencies).'}
        </p>
        <label htmlFor={notesId} className="muted" style={{ fontSize: 12 }}>
          {kind === 'confirm' ? 'Comment (optional)' : 'Notes (optional)'}
        </label>
        <textarea
          id={notesId}
          className="textarea"
          value={notes}
          onChange={(e) => {
            setNotes(e.target.value);
          }}
        />
        <div className="dialog-actions" style={{ justifyContent: 'flex-start', marginTop: 0 }}>
          <MutateButton className="button primary" mutation={decide} input={decision(true)}>
            <CircleCheck size={14} aria-hidden="true" />
            {kind === 'confirm' ? 'Confirm' : 'Accept and unblock'}
          </MutateButton>
          <MutateButton className="button" mutation={decide} input={decision(false)}>
            <CircleX size={14} aria-hidden="true" />
            Reject
          </MutateButton>
        </div>
        {decide.error ? (
          <p className="inline-error" role="alert">
            {errorText(decide.error)}
          </p>
        ) : null}
      </div>
    </section>
  );
}

/** External signing: debsign here when main has it, otherwise the CLI's way. */
function SignStep(props: { wr: WorkRequestResponse }): React.JSX.Element {
  const { wr } = props;
  const titleId = useId();
  const availability = useAppQuery(workRequestQueries.signingAvailable);
  const unsigned = wr.task_data.unsigned;
  const sign = useMutationOf(workRequestMutations.sign);
  const command = cliCommand('sign', wr.id);
  return (
    <section className="wr-callout" aria-labelledby={titleId} data-testid="waiting-step">
      <PenLine size={18} aria-hidden="true" className="tone-attention" />
      <div className="wr-callout-body">
        <h3 id={titleId}>This step waits for your signature</h3>
        <p className="muted">
          The upload
          {typeof unsigned === 'number' ? (
            <>
              {' '}
              (artifact <OpenButton kind="artifact" id={unsigned} className="link-button mono" />)
            </>
          ) : null}{' '}
          must be signed with your OpenPGP key (debsign), uploaded, and the step completed. Only the
          person who started the workflow can do it.
        </p>
        {availability.data?.available ? (
          <>
            <MutateButton className="button primary" mutation={sign} input={wr.id}>
              <PenLine size={14} aria-hidden="true" />
              {sign.isPending
                ? 'Signing… (check for a passphrase prompt)'
                : 'Sign with debsign and complete'}
            </MutateButton>
            {sign.data ? (
              <p role="status">
                Signed: artifact{' '}
                <OpenButton
                  kind="artifact"
                  id={sign.data.signedArtifactId}
                  className="link-button mono"
                />{' '}
                uploaded and the step completed.
              </p>
            ) : null}
          </>
        ) : availability.isPending ? null : (
          <>
            <p>
              {availability.data?.message ??
                'debsign is not available on this computer, so Debusine Desktop cannot sign here.'}{' '}
              On a computer with devscripts and your key, run:
            </p>
            <div className="wr-code">
              <code>{command}</code>
              <CopyButton text={command} label="Copy" />
            </div>
            <p className="muted">
              It downloads the .changes, .dsc and .buildinfo, runs{' '}
              <span className="mono">debsign --re-sign</span>, uploads the signed files and
              completes this step. This page updates when it does.
            </p>
          </>
        )}
        {sign.error ? (
          <p className="inline-error" role="alert">
            {errorText(sign.error)}
          </p>
        ) : null}
      </div>
    </section>
  );
}
