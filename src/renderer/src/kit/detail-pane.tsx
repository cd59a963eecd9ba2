import { Pencil, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { ConfirmDialog } from '@renderer/components/confirm-dialog';
import { problemOf } from '@renderer/kit/errors/problem';
import { ProblemBanner } from '@renderer/kit/errors/problem-banner';

/** The parts of a `useConfirmedDelete` flow a detail pane shows. */
export interface DeleteFlow {
  remove: { isError: boolean; error: unknown };
  confirming: boolean;
  setConfirming: (confirming: boolean) => void;
}

/**
 * A server object's detail pane: its heading with Edit and Delete (after `actions`), the body
 * under the delete's refusal, and the confirmation a Delete opens.
 */
export function DetailPane(props: {
  heading: string;
  /** Shown on hover, for headings that may be cut. */
  headingTitle?: string;
  /** Buttons before Edit and Delete. */
  actions?: ReactNode;
  onEdit: () => void;
  deletion: DeleteFlow;
  /** Sends the delete, once confirmed. */
  onConfirmDelete: () => void;
  confirmTitle: string;
  confirmLabel: string;
  /** What the confirmation says. */
  confirmText: ReactNode;
  children: ReactNode;
}): React.JSX.Element {
  const { deletion } = props;
  const askToDelete = (): void => {
    deletion.setConfirming(true);
  };
  return (
    <>
      <div className="pane-header">
        <h2 className="mono" title={props.headingTitle}>
          {props.heading}
        </h2>
        <div className="pane-actions">
          {props.actions}
          <button type="button" className="button small" onClick={props.onEdit}>
            <Pencil size={14} aria-hidden="true" />
            Edit
          </button>
          <button type="button" className="button small" onClick={askToDelete}>
            <Trash2 size={14} aria-hidden="true" />
            Delete
          </button>
        </div>
      </div>
      <div className="pane-body">
        <ProblemBanner
          problem={deletion.remove.isError ? problemOf(deletion.remove.error) : null}
          heading="The server did not delete it"
          // A refused delete leaves no edit behind to keep.
          keep={false}
        />
        {props.children}
      </div>
      <ConfirmDialog
        open={deletion.confirming}
        title={props.confirmTitle}
        confirmLabel={props.confirmLabel}
        danger
        onConfirm={props.onConfirmDelete}
        onCancel={() => {
          deletion.setConfirming(false);
        }}
      >
        {props.confirmText}
      </ConfirmDialog>
    </>
  );
}
