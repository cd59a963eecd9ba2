import { Save } from 'lucide-react';
import { DiffView } from '@renderer/components/diff-view';
import { ModalDialog } from '@renderer/components/modal-dialog';

/**
 * "Review changes": the diff between the server's version and the edit, shown before the
 * save is sent. Saving closes it; a refused save leaves the edit as it was.
 */
export function ReviewDialog(props: {
  open: boolean;
  title: string;
  before: string;
  after: string;
  saving: boolean;
  confirmLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
}): React.JSX.Element {
  return (
    <ModalDialog
      open={props.open}
      className="dialog review-dialog"
      labelledBy="review-dialog-title"
      onCancel={props.onCancel}
    >
      <h2 id="review-dialog-title">{props.title}</h2>
      {props.open ? (
        <DiffView before={props.before} after={props.after} label={props.title} />
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={props.onCancel}>
          Keep editing
        </button>
        <button
          type="button"
          className="button primary"
          disabled={props.saving}
          onClick={props.onConfirm}
          autoFocus
        >
          <Save size={14} aria-hidden="true" />
          {props.saving ? 'Saving…' : (props.confirmLabel ?? 'Save to server')}
        </button>
      </div>
    </ModalDialog>
  );
}
