import type { ReactNode } from 'react';
import { EditorActions } from './editor-actions';
import { otherFieldMessages, type Problem } from '@renderer/kit/errors/problem';
import { ProblemBanner } from '@renderer/kit/errors/problem-banner';
import { ReviewDialog } from './review-dialog';

/** The parts of a `useReviewedSave` flow an editor pane shows. */
export interface ReviewedSaveFlow<D> {
  save: { isPending: boolean; mutate: (draft: D) => void };
  reviewing: boolean;
  setReviewing: (reviewing: boolean) => void;
  problem: Problem | null;
}

/**
 * An editor of a server object: its title and `header`, the form (the save's refusal, the
 * fields, the actions) whose submit opens the review, and the review dialog that saves `draft`.
 */
export function EditorPane<D>(props: {
  title: string;
  /** Beside the title. */
  header: ReactNode;
  /** Editing an object the server has (not a new one). */
  existing: boolean;
  flow: ReviewedSaveFlow<D>;
  draft: D;
  dirty: boolean;
  canSave: boolean;
  /** Fields whose server messages the form shows at the field (the banner leaves them out). */
  fields: readonly string[];
  review: { title: string; before: string; after: string; confirmLabel: string };
  onClose: () => void;
  children: ReactNode;
}): React.JSX.Element {
  const { flow, review } = props;
  return (
    <>
      <div className="pane-header">
        <h2 className={props.existing ? 'mono' : ''}>{props.title}</h2>
        {props.header}
      </div>
      <form
        className="pane-body"
        aria-label={props.title}
        onSubmit={(event) => {
          event.preventDefault();
          if (props.canSave) flow.setReviewing(true);
        }}
      >
        <ProblemBanner
          problem={flow.problem}
          extra={otherFieldMessages(flow.problem, props.fields)}
        />
        {props.children}
        <EditorActions
          dirty={props.dirty}
          existing={props.existing}
          canSave={props.canSave}
          onClose={props.onClose}
        />
      </form>
      <ReviewDialog
        open={flow.reviewing}
        title={review.title}
        before={review.before}
        after={review.after}
        saving={flow.save.isPending}
        confirmLabel={review.confirmLabel}
        onConfirm={() => {
          flow.save.mutate(props.draft);
        }}
        onCancel={() => {
          flow.setReviewing(false);
        }}
      />
    </>
  );
}
