import type { ReactNode } from 'react';
import { ModalDialog } from './modal-dialog';

/**
 * A modal confirmation on the native <dialog> element: focus is trapped and restored by the
 * browser, Escape cancels.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}): React.JSX.Element {
  return (
    <ModalDialog
      open={props.open}
      className="dialog"
      labelledBy="confirm-dialog-title"
      onCancel={props.onCancel}
    >
      <h2 id="confirm-dialog-title">{props.title}</h2>
      <div className="dialog-body">{props.children}</div>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className={props.danger ? 'button danger' : 'button primary'}
          onClick={props.onConfirm}
        >
          {props.confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
