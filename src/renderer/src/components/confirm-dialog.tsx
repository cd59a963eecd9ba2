import type { ReactNode } from 'react';
import { ChoiceDialog, type Choice } from './modal-dialog';

/**
 * A modal confirmation on the native <dialog> element: focus is trapped and restored by the
 * browser, Escape cancels.
 */
export function ConfirmDialog(
  props: Choice & { children?: ReactNode; confirmLabel: string; danger?: boolean },
): React.JSX.Element {
  return (
    <ChoiceDialog
      choice={props}
      className="dialog"
      titleId="confirm-dialog-title"
      cancelLabel="Cancel"
      confirm={{
        className: props.danger ? 'button danger' : 'button primary',
        content: props.confirmLabel,
      }}
    >
      <div className="dialog-body">{props.children}</div>
    </ChoiceDialog>
  );
}
