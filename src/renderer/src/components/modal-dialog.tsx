import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal on the native <dialog> element, shown while `open`: focus is trapped and restored
 * by the browser, Escape calls `onCancel`.
 */
export function ModalDialog(props: {
  open: boolean;
  className: string;
  /** The id of the element that names the dialog. */
  labelledBy: string;
  onCancel: () => void;
  children: ReactNode;
}): React.JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      className={props.className}
      aria-labelledby={props.labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      {props.children}
    </dialog>
  );
}

/** What the caller of a dialog that asks for a choice gives it. */
export interface Choice {
  open: boolean;
  title: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The frame the app's yes-or-no dialogs share: a title that names the dialog, its body, and a
 * row of actions in which "cancel" always comes first and does what Escape does, so that every
 * such dialog is left the same way.
 */
export function ChoiceDialog(props: {
  choice: Choice;
  className: string;
  /** The id given to the title, which names the dialog. */
  titleId: string;
  cancelLabel: string;
  /** The button that goes ahead: its class, and whether it is disabled or takes the focus. */
  confirm: { className: string; disabled?: boolean; autoFocus?: boolean; content: ReactNode };
  children: ReactNode;
}): React.JSX.Element {
  const { choice, confirm } = props;
  return (
    <ModalDialog
      open={choice.open}
      className={props.className}
      labelledBy={props.titleId}
      onCancel={choice.onCancel}
    >
      <h2 id={props.titleId}>{choice.title}</h2>
      {props.children}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={choice.onCancel}>
          {props.cancelLabel}
        </button>
        <button
          type="button"
          className={confirm.className}
          disabled={confirm.disabled}
          onClick={choice.onConfirm}
          autoFocus={confirm.autoFocus}
        >
          {confirm.content}
        </button>
      </div>
    </ModalDialog>
  );
}
