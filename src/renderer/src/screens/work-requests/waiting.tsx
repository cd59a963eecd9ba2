import { CircleCheck, CircleX, Hand } from 'lucide-react';
import { useId, useState } from 'react';
import type { WorkRequestResponse } from '@shared/contract';
import { MutateButton } from '@renderer/components/mutate-button';
import { useMutationOf } from '@renderer/queries/hooks';
import { workRequestMutations } from '@renderer/queries/work-requests';
import { isExternalDebsign, waitingKind } from './model';
import { SignStep } from './sign-step';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What a waiting step asks of the user, and the means to answer it, on its page. */
export function WaitingStep(props: { wr: WorkRequestResponse }): React.JSX.Element | null {
  const kind = waitingKind(props.wr);
  // Signing completes the step, and its answer (which key, which artifact) stays shown
  // after: the signing part stays mounted while the step is not blocked.
  if (kind === 'sign' || (kind === null && isExternalDebsign(props.wr))) {
    return <SignStep wr={props.wr} />;
  }
  switch (kind) {
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
